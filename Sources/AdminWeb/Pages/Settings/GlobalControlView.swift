import AdminDomain
import HTMLRender

/// The global control group's share: what it means, the form that changes it, and every
/// change with the date it took effect.
struct GlobalControlView: HTMLComponent {
    let settings: GlobalControl.Settings
    let changed: Bool
    let problem: String?
    /// The share as typed, shown again when refused.
    let typed: String?
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Global control group", viewer: viewer, activeSection: .settings) {
            section(.class("panel")) {
                h1 { "Global control group" }
                p {
                    "A share of all users, drawn once by their user id with a secret key the panel keeps, who get no "
                    "campaign or journey push at all, so that the whole program of pushes can be compared with "
                    "people who get none. Reminders, which the backend sends, still reach them, and so do test "
                    "sends to test users."
                }
                p {
                    "Members are left out at the audience preview, when a campaign's audience is frozen and again "
                    "when each push falls due, so a change here applies to campaigns already launched and journeys "
                    "already running. Raising the share keeps every member and adds users; lowering it releases "
                    "the members added last, who may get pushes again at once. Users who sign up later are drawn "
                    "in the same share."
                }
                if changed { p(.class("notice"), .role("status")) { "Changed. The new share is in force now." } }
                if let problem {
                    p(.class("notice error"), .role("alert"), .id("problem")) { "Not changed: \(problem)." }
                }
                p(.id("current-share")) {
                    "In force now: "
                    strong { "\(settings.percent)%" }
                    settings.history.last.map { " since \($0.tookEffectAt.text) UTC." } ?? " (never set)."
                }
                HTMLRender.form(.method(.post), .action(SiteURL.globalControl().href), .class("spaced")) {
                    CSRFField(token: viewer.csrfToken)
                    label {
                        "Share of users, in whole percent (0 to \(GlobalControl.maximumPercent))"
                        input(
                            .type("number"), .name("percent"), .value(typed ?? String(settings.percent)),
                            Attribute("min", "0"), Attribute("max", String(GlobalControl.maximumPercent)),
                            Attribute("step", "1"), .required, .autocomplete("off"),
                            Attribute("aria-describedby", problem == nil ? "current-share" : "problem"))
                    }
                    button(.type("submit"), .class("primary")) { "Put this share in force" }
                }
            }
            section(.class("panel")) {
                h2 { "Changes" }
                if settings.history.isEmpty {
                    p(.class("muted")) { "The share has never been set: nobody is in the group." }
                } else {
                    DataTable(
                        caption: "Every change of the share, newest first",
                        columns: [.init("Took effect"), .init("Share", numeric: true), .init("Changed by")],
                        rows: settings.history.reversed().map { change in
                            TableRow([
                                TableCell("\(change.tookEffectAt.text) UTC"), TableCell("\(change.percent)%"),
                                TableCell { UserText(text: change.by ?? "someone since removed") },
                            ])
                        })
                }
            }
        }.content
    }
}
