import AdminDomain
import HTMLRender

/// The reminder alerts in force, on every page for signed-in staff: what is wrong, since
/// when and for how long, and a link to the figures. Colour and words both say it. Folded
/// to one line that opens (issue 46: on a 390 px phone it filled the first screen).
struct ReminderAlertBanner: HTMLComponent {
    let alerts: [ReminderAlert]

    var content: HTMLNode {
        div(.class("banner reminder-alert"), .role("status"), .ariaLabel("Reminder alerts")) {
            details {
                summary {
                    strong { alerts.count == 1 ? "Reminder alert:" : "\(alerts.count) reminder alerts:" }
                    " "
                    span(.class("alert-first")) { alerts.first.map(Self.headline) ?? "" }
                }
                ul {
                    for alert in alerts {
                        li {
                            alert.sentence
                            " "
                            Self.began(alert)
                        }
                    }
                }
                a(.href(SiteURL.reminders(.hour).href)) { "See the reminder figures" }
            }
        }
    }

    /// The folded line: the first alert's sentence to its first stop, and its age.
    static func headline(_ alert: ReminderAlert) -> String {
        let first = alert.sentence.prefix { $0 != ";" && $0 != ":" && $0 != "." && $0 != "(" }
        let age = alert.began == .fromData ? "for \(alert.age)" : "seen for \(alert.age)"
        return "\(first.trimmingCharacters(in: .whitespaces)), \(age)."
    }

    /// When it began, as the rows say it, or as the panel first saw it (it may be older).
    @HTMLBuilder static func began(_ alert: ReminderAlert) -> [HTMLNode] {
        switch alert.began {
        case .fromData:
            "Since "
            AsOfTime(date: alert.since)
            " (\(alert.age))."
        case .firstSeen:
            "First seen by the panel at "
            AsOfTime(date: alert.since)
            " (\(alert.age) ago); it may have begun earlier."
        }
    }
}
