import AdminDomain
import Foundation

/// A campaign's schedule as a sentence for the confirmation page.
enum ScheduleWords {
    static func sentence(_ schedule: CampaignSchedule, defaultTimeZone: String) -> String {
        switch schedule {
        case .now:
            "Now: sending starts as soon as you confirm, except to people in their quiet hours, who get it when those "
                + "end."
        case .at(let date):
            "On \(day(date)) at \(time(date)) UTC, except to people in their quiet hours then, who get it when those "
                + "end."
        case .localTime(let local):
            "At the next \(local) where each recipient is, within a day of confirming, by their own timezone "
                + "(\(defaultTimeZone) for anyone whose timezone is not valid), and after their quiet hours."
        }
    }

    /// The timing in words; nil as scheduled (the schedule says it all).
    static func timing(_ timing: CampaignTiming?) -> String? {
        switch timing {
        case nil: "unknown timing: this version of the panel cannot read it"
        case .asScheduled: nil
        case .usualHour(let percent):
            "at each user's usual hour within 24 hours (control \(percent)% at the fixed time)"
        }
    }

    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year], from: date)
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return
            "\(weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 1) \(months[(parts.month ?? 1) - 1]) "
            + "\(parts.year ?? 1970)"
    }

    static func time(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let minutes = ((seconds % 86_400 + 86_400) % 86_400) / 60
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
