import AdminDomain
import HTMLRender

/// The reminder alerts in force, on every page for signed-in staff: what is wrong, since
/// when, and a link to the figures. Colour and words both say it.
struct ReminderAlertBanner: HTMLComponent {
    let alerts: [ReminderAlert]

    var content: HTMLNode {
        div(.class("banner reminder-alert"), .role("status"), .ariaLabel("Reminder alerts")) {
            strong { alerts.count == 1 ? "Reminder alert:" : "Reminder alerts:" }
            ul {
                for alert in alerts {
                    li {
                        alert.sentence
                        " Since "
                        AsOfTime(date: alert.since)
                        "."
                    }
                }
            }
            a(.href(SiteURL.reminders(.hour).href)) { "See the reminder figures" }
        }
    }
}
