import Foundation

/// The findings of when reminders fall: timezone, daily time, reminder days, quiet hours.
/// What the backend does with a value that does not read is not in view: the finding says
/// what it likely does, marked as a guess.
extension Reachability {
    static let guess = "A guess, since the backend's code is not in view:"

    static func timezoneFindings(_ profile: UserProfile, settings: UserProfile.Settings?) -> [Finding] {
        let stored = profile.account.timezone
        if profile.calendar.isValidTimezone {
            return [Finding(.fine, "Timezone \(stored)", evidence: "timezone: \(stored)", place: .account)]
        }
        let daily = (settings?.dailyTime).flatMap(LocalTime.init) ?? (settings == nil ? LocalTime("09:00") : nil)
        let when =
            daily.map { "the daily reminder comes at \($0) UTC, not \($0) their time" } ?? "reminders come at UTC times"
        return [
            Finding(
                .mayNot, "Timezone “\(stored)” is not a timezone",
                evidence: "timezone: “\(stored)”. \(guess) it likely uses UTC, so \(when)", place: .account)
        ]
    }

    /// 'N,N,…' of whole days, 0 to 366: what the app writes.
    public static func reminderDays(_ text: String) -> [Int]? {
        let days = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        .map { part -> Int? in
            part.allSatisfy(\.isASCII) ? Int(part).flatMap { (0...366).contains($0) ? $0 : nil } : nil
        }
        guard !days.isEmpty, !days.contains(nil) else { return nil }
        return days.compactMap { $0 }
    }

    /// `timezoneReads`: whether the user's stored timezone is one; their times are "their time"
    /// only then (issue 46: "(their time)" stood beside a timezone the profile said does not read).
    static func scheduleFindings(_ settings: UserProfile.Settings, timezoneReads: Bool = true) -> [Finding] {
        var findings: [Finding] = []
        let daily = LocalTime(settings.dailyTime)
        let theirTime = timezoneReads ? "their time" : "their time; their stored timezone does not read"
        if let daily {
            findings.append(
                Finding(
                    .fine, "Daily reminder time \(daily) (\(theirTime))", evidence: "daily_time: \(daily)",
                    place: .settings))
        } else {
            findings.append(
                Finding(
                    .mayNot, "Daily reminder time “\(settings.dailyTime)” does not read as a time HH:MM",
                    evidence:
                        "daily_time: “\(settings.dailyTime)”. \(guess) it likely falls back to its default, 09:00, "
                        + "or skips the daily reminder",
                    place: .settings))
        }
        if let days = reminderDays(settings.reminderDays) {
            findings.append(
                Finding(
                    .fine, "Reminders \(days.map(String.init).joined(separator: ", ")) days before expiry",
                    evidence: "reminder_days: \(settings.reminderDays)", place: .settings))
        } else {
            findings.append(
                Finding(
                    .mayNot, "Reminder days “\(settings.reminderDays)” do not read as a list of days",
                    evidence:
                        "reminder_days: “\(settings.reminderDays)”. \(guess) it likely falls back to its default, "
                        + "30, 15, 7 and 1 days before, or schedules no reminder",
                    place: .settings))
        }
        switch settings.quietHours {
        case .none:
            findings.append(
                Finding(.fine, "No quiet hours", evidence: "quiet_start and quiet_end: none", place: .settings))
        case .sameStartAndEnd(let time):
            findings.append(
                Finding(
                    .fine, "No quiet hours (they start and end at \(time))",
                    evidence: "quiet_start and quiet_end: \(time)", place: .settings))
        case .period(let start, let end):
            let period = "\(start) to \(end)\(settings.quietHours.crossesMidnight ? " (over midnight)" : "")"
            let evidence = "quiet_start \(start), quiet_end \(end), daily_time \(settings.dailyTime) (\(theirTime))"
            if let daily, covers(start: start, end: end, daily) {
                findings.append(
                    Finding(
                        .mayNot, "Quiet hours \(period) cover the daily reminder time \(daily)",
                        evidence: evidence + ": a reminder then may be held until \(end) or arrive silently",
                        place: .settings))
            } else {
                findings.append(
                    Finding(
                        .fine, "Quiet hours \(period)\(daily == nil ? "" : " leave the daily reminder time free")",
                        evidence: evidence, place: .settings))
            }
        case .unreadable(let start, let end):
            findings.append(
                Finding(
                    .note, "Quiet hours do not read: the sender treats them as none",
                    evidence:
                        "quiet_start \(start.map { "“\($0)”" } ?? "nothing"), "
                        + "quiet_end \(end.map { "“\($0)”" } ?? "nothing")",
                    place: .settings))
        }
        return findings
    }

    /// Whether `time` falls in the quiet period; one whose end is before its start runs over midnight.
    static func covers(start: LocalTime, end: LocalTime, _ time: LocalTime) -> Bool {
        start.minutes < end.minutes
            ? (start.minutes..<end.minutes).contains(time.minutes)
            : time.minutes >= start.minutes || time.minutes < end.minutes
    }
}
