import AdminDomain
import HTMLRender

/// The test users: who they are, who added them, how many of their devices a test reaches.
struct TestUsersView: HTMLComponent {
    enum Notice: String {
        case added, removed

        var sentence: String {
            switch self {
            case .added: "Added. Test sends can go to this user now."
            case .removed: "Removed. Test sends no longer go to this user."
            }
        }
    }

    let entries: [TestUsers.Entry]
    let notice: Notice?
    let problem: String?
    let typed: String
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Test users", viewer: viewer, activeSection: .campaigns) {
            section(.class("panel")) {
                h1 { "Test users" }
                p {
                    "A campaign's test send goes only to these app users, to each of their devices that could get a campaign push "
                    "(an active account, push and campaign pushes on, permission and a token no provider called dead)."
                }
                if let notice { p(.class("notice"), .role("status")) { notice.sentence } }
                if let problem { p(.class("notice error"), .role("alert")) { problem } }
                HTMLRender.form(.method(.post), .action(SiteURL.testUsers().href), .class("spaced")) {
                    CSRFField(token: viewer.csrfToken)
                    label {
                        "App user's email"
                        input(.type("text"), .name("email"), .value(typed), .required, .autocomplete("off"), Attribute("inputmode", "email"))
                    }
                    button(.type("submit"), .class("primary")) { "Add a test user" }
                }
                if entries.isEmpty {
                    p(.class("muted")) { "No test users yet." }
                } else {
                    DataTable(caption: "Test users, by email",
                              columns: [.init("Email"), .init("User"), .init("Devices a test reaches", numeric: true), .init("Added"), .init("Change")],
                              rows: entries.map { entry in
                                  TableRow([
                                      TableCell { UserText(text: entry.email) },
                                      TableCell("#\(entry.userID)"),
                                      TableCell(Format.grouped(entry.reachableDevices)),
                                      TableCell("\(entry.addedAt) UTC by \(entry.addedBy ?? "someone since removed")"),
                                      TableCell {
                                          HTMLRender.form(.method(.post), .action(SiteURL.removeTestUser(userID: entry.userID).href), .class("inline")) {
                                              CSRFField(token: viewer.csrfToken)
                                              button(.type("submit"), .ariaLabel("Remove \(UserText.visible(entry.email))")) { "Remove" }
                                          }
                                      },
                                  ])
                              })
                }
                p { a(.href(SiteURL.campaigns().href)) { "All campaigns" } }
            }
        }.content
    }
}
