import AdminDomain
import Foundation

/// The reminder health page's data for one range: the monitor's latest snapshot as it stands,
/// never waited for (before the first count the page says the figures are being counted).
struct RemindersModel: PageModel {
    /// One line of a split: a kind, a number of days before, a set of platforms.
    struct Split: Equatable {
        let label: String
        let figures: ReminderFigures
    }

    struct Source: Sendable {
        let monitor: ReminderHealthMonitor
        /// How often the figures are re-read, as the page says.
        let refreshEvery: Duration
    }

    let range: ReminderRange
    /// nil before the first count is done.
    let snapshot: ReminderHealthSnapshot?
    let refreshSeconds: Int64
    /// The on-time alert's target (`--reminder-on-time-target`), named on its chart.
    var onTimeTarget = ReminderAlertOptions().onTimeTarget

    static func load(_ source: Source, _ range: ReminderRange) async throws -> RemindersModel {
        RemindersModel(
            range: range, snapshot: source.monitor.latest(), refreshSeconds: source.refreshEvery.components.seconds,
            onTimeTarget: source.monitor.options.onTimeTarget)
    }

    /// `?range=`: absent is the last 24 hours; an empty value, one given twice, or anything
    /// else that names no range is refused with a sentence, never replaced by another range.
    static func range(from values: [String]) throws -> ReminderRange {
        guard let text = values.first else { return .day }
        guard values.count == 1 else {
            throw PanelError(
                status: .badRequest, sentence: "Give one range, not \(values.count): choose 1h, 24h, 7d or 30d.")
        }
        guard let range = ReminderRange(rawValue: text) else {
            throw PanelError(status: .badRequest, sentence: ReminderRange.refusal(String(text.prefix(40))))
        }
        return range
    }

    var report: ReminderHealthReport? { snapshot?.report(range) }

    /// Food and documents first, then any other kind the app stored, by name.
    var byKind: [Split] {
        guard let report else { return [] }
        let order = ["food": 0, "document": 1]
        return report.byKind.sorted { (order[$0.key] ?? 2, $0.key) < (order[$1.key] ?? 2, $1.key) }
            .map { Split(label: $0.key, figures: $0.value) }
    }

    /// By number of days before, smallest first; a value that is no whole number last.
    var byDaysBefore: [Split] {
        guard let report else { return [] }
        return report.byDaysBefore.sorted { ($0.key ?? .max) < ($1.key ?? .max) }
            .map { Split(label: $0.key.map { Format.count($0, "day", "days") } ?? "not a number", figures: $0.value) }
    }

    var byPlatforms: [Split] {
        guard let report else { return [] }
        return ReminderHealthReport.Platforms.allCases.compactMap { platforms in
            report.byPlatforms[platforms].map { Split(label: platforms.label, figures: $0) }
        }
    }

    /// A chart point's label: "14:00" for an hour, "2026-11-26" for a day (UTC), a star when
    /// the period is still going on.
    func label(_ point: ReminderHealthReport.Point) -> String {
        let text = SQLiteTime.string(Date(timeIntervalSince1970: TimeInterval(point.start)))
        return (range.bucketSeconds == 3_600 ? String(text.dropFirst(11).prefix(5)) : String(text.prefix(10)))
            + (point.partial ? "*" : "")
    }
}
