import Foundation

/// The health figures of one range as plain lines: `admin-panel reminders` prints them for
/// cron and incident reviews.
public enum ReminderHealthSummary {
    public static func lines(_ snapshot: ReminderHealthSnapshot, range: ReminderRange) -> [String] {
        guard let report = snapshot.report(range) else { return ["No figures for \(range.label.lowercased())."] }
        let figures = report.figures
        var lines = [
            "Reminders due in the \(range.label.lowercased()): \(SQLiteTime.string(secondsSinceEpoch: report.from)) to "
                + "\(SQLiteTime.string(secondsSinceEpoch: report.until)) UTC"
        ]
        // Two spaces at least between a name and its value, however long the name.
        func line(_ name: String, _ value: String) {
            lines.append(name.padding(toLength: max(38, name.count + 2), withPad: " ", startingAt: 0) + value)
        }
        line("due", figures.due.grouped)
        line("sent", figures.sent.grouped)
        line(
            "sent on time (within 60 s)",
            figures.sentOnTime.grouped + share(figures.onTimeShare, of: "due over a minute ago, not cancelled"))
        if let lateness = figures.lateness {
            line(
                "lateness p50 / p90 / p99 / largest",
                [lateness.p50, lateness.p90, lateness.p99, lateness.max].map(duration).joined(separator: " / ")
                    + " (\(lateness.count.grouped) measured)")
        } else {
            line("lateness", "none measured")
        }
        line("failed", figures.failed.grouped)
        line("cancelled", figures.cancelled.grouped)
        line("overdue (scheduled, > 5 min late)", figures.overdue.grouped)
        line(
            "waiting (due in the last 5 min)",
            figures.waiting.grouped + " (\(figures.undecided.grouped) in their first minute: in no share)")
        line("opened", figures.opened.grouped + share(figures.openedShare, of: "sent"))
        line("sent, time does not read", figures.sentTimeUnreadable.grouped + " (in no percentile)")
        line("sent before scheduled", figures.sentBeforeScheduled.grouped + " (in no percentile)")
        line("scheduled time does not read", snapshot.scheduledTimeUnreadable.grouped + " (in no range)")
        line("SC-002 (on time and opened, users)", criterion(report.sc002))
        line("SC-011 (sent / (sent + failed))", criterion(report.sc011))
        if snapshot.alerts.isEmpty {
            lines.append("No alert.")
        } else {
            for alert in snapshot.alerts {
                lines.append("ALERT since \(SQLiteTime.string(alert.since)) UTC: \(alert.sentence)")
            }
        }
        return lines
    }

    static func share(_ value: Double?, of whole: String) -> String {
        value.map { String(format: " (%.1f%% of %@)", $0 * 100, whole) } ?? ""
    }

    static func criterion(_ criterion: ReminderCriterion) -> String {
        guard let value = criterion.value else { return "nothing to measure" }
        return String(
            format: "%.1f%% (%@ of %@), target %@%.0f%%: %@", value * 100, criterion.numerator.grouped,
            criterion.denominator.grouped,
            criterion.strictlyAbove ? "over " : "", criterion.target * 100, criterion.met == true ? "met" : "not met")
    }

    /// "42 s", "12 min 5 s", "3 h 2 min", "2 d 7 h": lateness as people say it, on the health
    /// page, on a user's reminders and here.
    public static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3_600 { return "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s") }
        if seconds < 86_400 {
            return "\(seconds / 3_600) h" + (seconds % 3_600 / 60 == 0 ? "" : " \(seconds % 3_600 / 60) min")
        }
        return "\(seconds / 86_400) d" + (seconds % 86_400 / 3_600 == 0 ? "" : " \(seconds % 86_400 / 3_600) h")
    }
}
