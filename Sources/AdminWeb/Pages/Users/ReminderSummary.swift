import AdminDomain
import HTMLRender

/// A user's reminders counted by every status (they add up to the total), each a link to
/// the list of those reminders.
struct ReminderSummary: HTMLComponent {
    let userID: Int64
    let counts: UserProfile.ReminderCounts
    /// The status the list shows, marked as current.
    var current: UserReminders.Status?

    static func count(_ counts: UserProfile.ReminderCounts, _ status: UserReminders.Status) -> Int {
        switch status {
        case .scheduled: counts.scheduled
        case .overdue: counts.overdue
        case .sent: counts.sent
        case .failed: counts.failed
        case .cancelled: counts.cancelled
        }
    }

    static func label(_ status: UserReminders.Status) -> String {
        switch status {
        case .scheduled: "Scheduled"
        case .overdue: "Overdue"
        case .sent: "Sent"
        case .failed: "Failed"
        case .cancelled: "Cancelled"
        }
    }

    var content: HTMLNode {
        let total = UserReminders.Status.allCases.reduce(0) { $0 + Self.count(counts, $1) }
        return p(.class("status-counts")) {
            "\(Format.count(total, "reminder", "reminders")): "
            for (index, status) in UserReminders.Status.allCases.enumerated() {
                if index > 0 { " · " }
                let link = SiteURL.userReminders(id: userID, RemindersForm(fields: ["status": status.rawValue])).href
                if current == status {
                    a(.href(link), .ariaCurrent("true")) {
                        "\(Self.label(status)) \(Format.grouped(Self.count(counts, status)))"
                    }
                } else {
                    a(.href(link)) { "\(Self.label(status)) \(Format.grouped(Self.count(counts, status)))" }
                }
            }
            " · opened \(Format.grouped(counts.opened)). Overdue: still scheduled over 5 minutes after its time."
        }
    }
}
