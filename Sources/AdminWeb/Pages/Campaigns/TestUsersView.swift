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
    /// The domains marketing may add test users from.
    let domains: TestUserDomains
    let notice: Notice?
    let problem: String?
    let typed: String
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Test users", viewer: viewer, activeSection: .campaigns) {
            section(.class("panel")) {
                h1 { "Test users" }
                p {
                    "A campaign's test send goes only to these app users, to each of their devices that could get a "
                    "campaign push (an active account, push and campaign pushes on, permission and a token no provider "
                    "called dead)."
                }
                p(.id("who-adds")) { whoAdds }
                if let notice { p(.class("notice"), .role("status")) { notice.sentence } }
                if let problem { p(.class("notice error"), .role("alert")) { problem } }
                if mayAdd {
                    HTMLRender.form(.method(.post), .action(SiteURL.testUsers().href), .class("spaced")) {
                        CSRFField(token: viewer.csrfToken)
                        label {
                            "App user's email"
                            input(
                                .type("text"), .name("email"), .value(typed), .required, .autocomplete("off"),
                                Attribute("inputmode", "email"))
                        }
                        button(.type("submit"), .class("primary")) { "Add a test user" }
                    }
                }
                if entries.isEmpty {
                    p(.class("muted")) { "No test users yet." }
                } else {
                    DataTable(
                        caption: "Test users, by email",
                        columns: [
                            .init("Email"), .init("User"), .init("Devices a test reaches", numeric: true),
                            .init("Added"), .init("Change"),
                        ],
                        rows: entries.map { entry in
                            TableRow([
                                TableCell { UserText(text: entry.email) },
                                TableCell("#\(entry.userID)"),
                                TableCell(Format.grouped(entry.reachableDevices)),
                                TableCell("\(entry.addedAt) UTC by \(entry.addedBy ?? "someone since removed")"),
                                TableCell {
                                    HTMLRender.form(
                                        .method(.post), .action(SiteURL.removeTestUser(userID: entry.userID).href),
                                        .class("inline")
                                    ) {
                                        CSRFField(token: viewer.csrfToken)
                                        button(.type("submit"), .ariaLabel("Remove \(UserText.visible(entry.email))")) {
                                            "Remove"
                                        }
                                    }
                                },
                            ])
                        })
                }
                p { a(.href(SiteURL.campaigns().href)) { "All campaigns" } }
            }
        }.content
    }

    private var isAdmin: Bool { viewer.identity.role == .admin }

    /// Marketing without a domain to add from gets no form: every add would be refused.
    private var mayAdd: Bool { isAdmin || !domains.isEmpty }

    /// Who may add whom: test sends carry the user's name and items, so they go to staff, not customers.
    private var whoAdds: String {
        switch (isAdmin, domains.isEmpty) {
        case (true, true):
            "As an admin you may add any app user's email. Marketing may add none: no test-user domain is configured."
        case (true, false):
            "As an admin you may add any app user's email. Marketing may add only emails at \(domains.sentence)."
        case (false, true):
            "Only an admin may add test users: no test-user domain is configured. Ask an admin to add the app account "
                + "you test with."
        case (false, false):
            "You may add the app accounts of emails at \(domains.sentence); an admin may add any app user's email."
        }
    }
}
