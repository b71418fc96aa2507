import AdminDomain
import HTMLRender

/// The top of a profile: can reminders and campaign pushes reach this user, and if not,
/// why; each finding links to the section that shows its evidence.
struct ReachabilityPanel: HTMLComponent {
    let reachability: Reachability
    let userID: Int64

    static let anchor = "reachability"

    static func sectionLabel(_ place: Reachability.Place) -> String {
        switch place {
        case .account: "account"
        case .settings: "notification settings"
        case .devices: "devices"
        case .reminders: "reminders"
        case .campaignPushes: "campaign pushes"
        }
    }

    var content: HTMLNode {
        section(.class("panel"), .id(Self.anchor), .ariaLabel("Reachability")) {
            h2 { "Can pushes reach this user?" }
            p(.class("verdict")) { UserText(text: reachability.sentence, clampAfter: 2_000) }
            ul(.class("findings")) {
                for finding in reachability.findings {
                    li(.class("finding-\(finding.mark.rawValue)")) {
                        StatusBadge(finding.mark)
                        span { UserText(text: finding.what, clampAfter: 600) }
                        span(.class("evidence")) {
                            UserText(text: finding.evidence, clampAfter: 600)
                            " · "
                            if let status = finding.reminders {
                                a(
                                    .href(
                                        SiteURL.userReminders(
                                            id: userID, RemindersForm(fields: ["status": status.rawValue])
                                        ).href)
                                ) {
                                    status == .sent
                                        ? "See the sent reminders and their lateness"
                                        : "See the \(status.rawValue) reminders"
                                }
                            } else {
                                a(.href("#\(finding.place.rawValue)")) { "See \(Self.sectionLabel(finding.place))" }
                            }
                        }
                    }
                }
            }
        }
    }
}
