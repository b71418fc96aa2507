import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 36, point 5: the staff page showed four red outline buttons on every row. Each row
/// now has one menu (a `<details>`, no script needed) holding its actions; each still asks
/// first on its own page or posts its own form with the page's token.
@Suite(.timeLimit(.minutes(20))) struct StaffRowMenus {
    /// Each row of the accounts table: its id and its markup.
    private func rows(_ page: String) -> [(id: String, html: String)] {
        page.matches(of: /<tr id="(staff-\d+)">(.*?)<\/tr>/.dotMatchesNewlines()).map { (String($0.1), String($0.2)) }
    }

    @Test func oneMenuARowAndItsActionsStillWork() async throws {
        let panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        let email = try await panel.addStaff()
        let id = try #require(try await panel.areas.auth.admins.find(email: email)?.id)
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let list = try await client.get("/admins", cookie: admin)
            let table = rows(list.text)
            #expect(table.count == 2, "the admin and the support account")
            for row in table {
                #expect(row.html.matches(of: /<details class="row-menu">/).count == 1, "one menu in \(row.id)")
                #expect(!row.html.contains("class=\"button danger\""), "no red button on the row itself: \(row.id)")
                #expect(
                    row.html.contains("<summary>Actions<span class=\"visually-hidden\"> for <bdi>"),
                    "a menu named for its person")
            }
            let help = try #require(table.first { $0.id == "staff-\(id)" })
            #expect(help.html.contains("<span class=\"badge tone-good\">active</span>"))

            // Disable, through the menu's link: its page asks, and its form acts.
            let link = try #require(
                help.html.firstMatch(of: /<a href="([^"]+)" class="danger" aria-label="Disable [^"]+">Disable…<\/a>/)
                    .map { String($0.1) })
            let ask = try await client.get(link, cookie: admin)
            #expect(ask.status == .ok && ask.text.contains("action=\"\(link)\""))
            let disabled = try await client.postSigned(link, session: admin)
            let after = try await client.follow(disabled, cookie: admin)
            #expect(after.text.contains("Account disabled."))
            #expect(try await panel.areas.auth.admins.find(email: email)?.disabledAt != nil)

            // Enable, through the form inside the menu: posted as the page has it, token and all.
            let row = try #require(rows(after.text).first { $0.id == "staff-\(id)" })
            #expect(row.html.contains("<span class=\"badge tone-bad\">disabled</span> since "))
            let form = try #require(
                row.html.firstMatch(
                    of:
                        #/
                        <li><form\ method="post"\ action="([^"]+\/enable)"\ class="inline">
                        <input\ type="hidden"\ name="_csrf"\ value="([^"]+)">
                        /#
                ))
            #expect(String(form.1) == "/admins/\(id)/enable", "the enable form is inside the menu")
            let enabled = try await client.postForm(String(form.1), [("_csrf", String(form.2))], cookie: admin)
            #expect(try await client.follow(enabled, cookie: admin).text.contains("Account enabled."))
            #expect(try await panel.areas.auth.admins.find(email: email)?.disabledAt == nil)
        }
    }
}
