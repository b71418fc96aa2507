import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 32, finding 8: a composer sent from a tab opened before a sign-out, or after the
/// session ended, answered "This form is out of date… reload", and the text was gone. A
/// refused form now comes back with what was typed and a fresh token (signed in), or after
/// signing in again; it is never carried out on a stale token.
@Suite(.timeLimit(.minutes(20))) struct RefusedForms {
    static let marketing = "market@example.com"
    static let typed: [(String, String)] = [
        ("name", "Kept"), ("title", "A <title> & more"), ("body", "Line one\r\nLine \"two\""), ("ttl", "86400"),
        ("when", "now"),
    ]

    /// As a browser posts a form of this panel's: it names the page's origin.
    private func post(
        _ client: some TestClientProtocol, _ uri: String, _ fields: [(String, String)], cookie: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "http://localhost"]
        if let cookie { headers[.cookie] = cookie }
        let body = fields.map { "\($0.0)=\(formEncode($0.1))" }.joined(separator: "&")
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    private func campaignCount(_ panel: TestPanel) async throws -> Int {
        try await panel.areas.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_campaigns") ?? -1
        }
    }

    private func token(_ page: TestResponse) -> String? {
        page.text.firstMatch(of: /name="_csrf" value="([^"]+)"/).map { String($0.1) }
    }

    private func expectTyped(_ page: TestResponse, _ note: Comment) {
        #expect(page.text.contains("A &lt;title&gt; &amp; more"), note)
        #expect(
            page.text.contains("Line one\nLine &quot;two&quot;") || page.text.contains("Line one\nLine \"two\""), note)
        #expect(!page.text.contains("<title> & more"), "escaped")
        #expect(page.text.contains("was not sent"), note)
    }

    /// Signed in again in another tab: the session lives, the page's token is another's.
    @Test func aComposerWithAStaleTokenComesBackFilledWithAFreshToken() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let old = try await panel.signIn(client, email: Self.marketing)
            let oldToken = CSRFToken.forSession(String(old.drop { $0 != "=" }.dropFirst()))
            let current = try await panel.signIn(client, email: Self.marketing)
            let freshToken = CSRFToken.forSession(String(current.drop { $0 != "=" }.dropFirst()))
            let refused = try await post(client, "/campaigns/new", Self.typed + [("_csrf", oldToken)], cookie: current)
            #expect(refused.status == .forbidden)
            expectTyped(refused, "the composer again, with what was typed")
            #expect(token(refused) == freshToken, "a fresh token for this session")
            #expect(try await campaignCount(panel) == 0, "nothing was stored on a stale token")

            // Sent again from that page, it is saved.
            let sent = try await post(
                client, "/campaigns/new", Self.typed + [("_csrf", try #require(token(refused)))], cookie: current)
            #expect(sent.status == .seeOther)
            #expect(try await campaignCount(panel) == 1)

            // An edit page too: the draft stays as it was.
            let id = try #require(Int64(sent.headers[.location]?.prefix { $0 != "?" }.split(separator: "/").last ?? ""))
            let edit = try await post(
                client, "/campaigns/\(id)/edit", [("title", "Changed"), ("body", "b"), ("_csrf", oldToken)],
                cookie: current)
            #expect(edit.status == .forbidden && edit.text.contains("value=\"Changed\"") && token(edit) == freshToken)
            let title = try await panel.areas.database.read { db in
                try String.fetchOne(db, sql: "SELECT title FROM panel_campaigns")
            }
            #expect(title == "A <title> & more")
        }
    }

    @Test func aStaffFormWithAStaleTokenComesBackFilled() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let old = try await panel.signIn(client)
            let oldToken = CSRFToken.forSession(String(old.drop { $0 != "=" }.dropFirst()))
            let current = try await panel.signIn(client)
            let refused = try await post(
                client, "/admins/create",
                [("email", "new.person@example.com"), ("role", "marketing"), ("_csrf", oldToken)],
                cookie: current)
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("value=\"new.person@example.com\"") && refused.text.contains("was not sent"))
            #expect(refused.text.contains("value=\"marketing\" selected"), "the role chosen")
            #expect(token(refused) == CSRFToken.forSession(String(current.drop { $0 != "=" }.dropFirst())))
            let created = try await panel.areas.auth.admins.find(email: "new.person@example.com")
            #expect(created == nil)
            // The test users' add form too.
            let testUser = try await post(
                client, "/campaigns/test-users", [("email", "tester@example.com"), ("_csrf", oldToken)], cookie: current
            )
            #expect(
                testUser.status == .forbidden && testUser.text.contains("value=\"tester@example.com\"")
                    && testUser.text.contains("was not sent"))
        }
    }

    /// Signed out in this browser (or the session ended): the form is kept while the person
    /// signs in again, and the sign-in leads back to it filled in, to be sent again.
    @Test func afterASignOutAndANewSignInTheTextComesBack() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: Self.marketing)
            let pageToken = CSRFToken.forSession(String(session.drop { $0 != "=" }.dropFirst()))
            #expect(try await client.postSigned("/logout", session: session).status == .seeOther)
            // The browser has no session cookie any more; the tab still has the old token.
            let refused = try await post(client, "/campaigns/new", Self.typed + [("_csrf", pageToken)])
            #expect(refused.status == .seeOther)
            let location = try #require(refused.headers[.location])
            #expect(location.hasPrefix("/login") && location.contains("next=/campaigns/new"))
            let kept = try #require(
                refused.headers[fields: .setCookie].first { $0.value.hasPrefix("panel_form=") }.map {
                    String($0.value.prefix { $0 != ";" })
                })
            #expect(try await campaignCount(panel) == 0)
            let login = try await client.get(location, cookie: kept)
            #expect(login.text.contains("after signing in"), "the sign-in page says the form is kept")

            // Signing in again goes back to the form, filled in, with this session's token.
            let form = try await client.loginForm()
            let signedIn = try await post(
                client, "/login",
                [
                    ("email", Self.marketing), ("password", TestPanel.password), ("next", "/campaigns/new"),
                    ("_csrf", form.token),
                ], cookie: "\(form.cookie); \(kept)")
            #expect(signedIn.headers[.location] == "/campaigns/new")
            let newSession = try #require(
                signedIn.headers[fields: .setCookie].first { $0.value.hasPrefix("panel_session=") }.map {
                    String($0.value.prefix { $0 != ";" })
                })
            let back = try await client.get("/campaigns/new", cookie: "\(newSession); \(kept)")
            #expect(back.status == .ok)
            expectTyped(back, "the composer filled in again")
            #expect(token(back) == CSRFToken.forSession(String(newSession.drop { $0 != "=" }.dropFirst())))
            #expect(
                back.headers[fields: .setCookie].contains {
                    $0.value.hasPrefix("panel_form=;") || $0.value.hasPrefix("panel_form=\"\"")
                        || $0.value.contains("Max-Age=0")
                },
                "shown once")
            #expect(try await campaignCount(panel) == 0, "nothing was sent by signing in")
            let again = try await client.get("/campaigns/new", cookie: "\(newSession); \(kept)")
            #expect(!again.text.contains("A &lt;title&gt;"), "taken once")

            let sent = try await client.postSigned("/campaigns/new", Self.typed, session: newSession)
            #expect(sent.status == .seeOther)
            #expect(try await campaignCount(panel) == 1)
        }
    }

    /// The session ended elsewhere (an admin ended it, or it ran out) while the cookie stayed.
    @Test func aFormSentAfterTheSessionEndedIsKeptForTheNextSignIn() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: Self.marketing)
            try await panel.areas.database.write { db in try db.execute(sql: "DELETE FROM panel_sessions") }
            let refused = try await client.postSigned("/campaigns/new", Self.typed, session: session)
            #expect(refused.status == .seeOther)
            #expect(refused.headers[.location]?.contains("next=/campaigns/new") == true)
            let kept = try #require(
                refused.headers[fields: .setCookie].first { $0.value.hasPrefix("panel_form=") }.map {
                    String($0.value.prefix { $0 != ";" })
                })
            let newSession = try await panel.signIn(client, email: Self.marketing)
            let back = try await client.get("/campaigns/new", cookie: "\(newSession); \(kept)")
            expectTyped(back, "filled in after signing in")
            #expect(try await campaignCount(panel) == 0)
        }
    }

    /// The launch's confirmation, sent from a tab of another session: asked again under this
    /// session's token, never launched; a form no page of this panel named as its origin gets
    /// the plain refusal, never its text back.
    @Test func aLaunchWithAStaleTokenIsAskedAgainAndNotLaunched() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await panel.test { client in
            let old = try await panel.signIn(client, email: Self.marketing)
            let oldToken = CSRFToken.forSession(String(old.drop { $0 != "=" }.dropFirst()))
            let current = try await panel.signIn(client, email: Self.marketing)
            _ = try await CampaignPages.waitForPreview(client, "/campaigns/\(id)", cookie: current)
            let refused = try await post(client, "/campaigns/\(id)/confirm", [("_csrf", oldToken)], cookie: current)
            #expect(refused.status == .forbidden && refused.text.contains("was not sent"))
            #expect(refused.text.contains("action=\"/campaigns/\(id)/confirm\""), "the confirmation again")
            #expect(token(refused) == CSRFToken.forSession(String(current.drop { $0 != "=" }.dropFirst())))
            #expect(try await panel.areas.campaigns.campaigns.find(id)?.status.known == .draft, "not launched")

            let bare = try await client.postForm("/campaigns/new", Self.typed + [("_csrf", oldToken)], cookie: current)
            #expect(bare.status == .forbidden && bare.text.contains("This form is out of date"))
            #expect(!bare.text.contains("A &lt;title&gt;"))
        }
        #expect(try await campaignCount(panel) == 1)
    }

    /// From the tryout: a test send refused on a stale token came back with the first test
    /// user and variant A chosen, so sending again went to someone else with another text.
    @Test func aTestSendWithAStaleTokenComesBackWithItsUserAndVariant() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        let experiment = CampaignExperiment(variants: [VariantMessage(variant: .b, title: "B", body: "b")])
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "t", body: "b", experiment: experiment), by: .commandLine)
        let users = try await panel.areas.database.write { db in
            let users = try Int64.fetchAll(db, sql: "SELECT id FROM users ORDER BY id LIMIT 2")
            for user in users {
                try db.execute(
                    sql: "INSERT INTO panel_test_users (user_id, added_at) VALUES (?, '2026-01-01 00:00:00')",
                    arguments: [user])
            }
            return users
        }
        try #require(users.count == 2)
        @Sendable func chosen(_ text: String, _ value: String) -> Bool {
            text.contains("<option selected value=\"\(value)\"") || text.contains("<option value=\"\(value)\" selected")
        }
        try await panel.test { client in
            let old = try await panel.signIn(client, email: Self.marketing)
            let oldToken = CSRFToken.forSession(String(old.drop { $0 != "=" }.dropFirst()))
            let current = try await panel.signIn(client, email: Self.marketing)
            _ = try await CampaignPages.waitForPreview(client, "/campaigns/\(id)", cookie: current)
            let refused = try await post(
                client, "/campaigns/\(id)/test-send",
                [("user", String(users[1])), ("variant", "B"), ("_csrf", oldToken)],
                cookie: current)
            #expect(refused.status == .forbidden && refused.text.contains("was not sent"))
            // The preview's own choosers show the first sample and variant A: only the test
            // send's form can have chosen these.
            #expect(chosen(refused.text, String(users[1])), "the test user as chosen")
            #expect(chosen(refused.text, "B"), "the variant as chosen")
        }
    }
}
