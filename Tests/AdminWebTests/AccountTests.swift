import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct OwnSessions {
    @Test func theListShowsEverySessionWithTheCurrentOneMarkedAndEscaped() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let email = try await panel.addStaff()
        try await panel.test { client in
            let form = try await client.loginForm()
            _ = try await client.execute(
                uri: "/login", method: .post,
                headers: [
                    .cookie: form.cookie, .contentType: "application/x-www-form-urlencoded",
                    .userAgent: "<script>alert('ua')</script>",
                ],
                body: ByteBuffer(
                    string: "email=\(formEncode(email))&password=\(formEncode(TestPanel.password))&_csrf=\(form.token)")
            )
            let current = try await panel.signIn(client, email: email)
            let page = try await client.get("/account/sessions", cookie: current)
            #expect(page.status == .ok)
            #expect(page.text.contains("2 active sessions"))
            #expect(page.text.components(separatedBy: "this session").count == 2, "exactly one row is marked")
            #expect(!page.text.contains("<script>alert"))
            #expect(page.text.contains("&lt;script&gt;alert('ua')&lt;/script&gt;"))
            #expect(page.text.contains("Sign out everywhere else"))
        }
    }

    /// Issue 46, finding 14b: throttled, "end other sessions" answered 422 without
    /// `Retry-After`. A throttled confirmation is 429 with the seconds to wait, as at sign-in;
    /// the password change too.
    @Test func aThrottledConfirmationIs429WithRetryAfter() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let current = try await panel.signIn(client)
            for (path, field) in [("/account/sessions/end-others", "password"), ("/account/password", "current")] {
                var throttled: TestResponse?
                for _ in 1...12 where throttled == nil {
                    var fields = [(field, "not my password")]
                    if field == "current" {
                        fields += [("password", "a new long passphrase"), ("repeat", "a new long passphrase")]
                    }
                    let answer = try await client.postSigned(path, fields, session: current)
                    if answer.text.contains("Too many wrong") { throttled = answer }
                }
                let answer = try #require(throttled, "\(path) is throttled in the end")
                #expect(answer.status == .tooManyRequests, "\(path)")
                let seconds = try #require(answer.headers[.retryAfter].flatMap(Int.init), "\(path)")
                #expect((1...900).contains(seconds), "\(path): \(seconds)")
                #expect(answer.text.contains("Try again in \(seconds) second"), "the page says the same wait")
                try await panel.areas.database.write { db in try db.execute(sql: "DELETE FROM panel_login_throttle") }
            }
        }
    }

    @Test func signingOutEverywhereElseKeepsOnlyThisSession() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let other = try await panel.signIn(client)
            let current = try await panel.signIn(client)
            for typed in ["", "not my password"] {
                let refused = try await client.postSigned(
                    "/account/sessions/end-others", [("password", typed)], session: current)
                #expect(refused.status == .unprocessableContent)
                #expect(try await client.get("/", cookie: other).status == .ok, "nothing ended without the password")
            }
            let response = try await client.postSigned(
                "/account/sessions/end-others", [("password", TestPanel.password)],
                session: current)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/account/sessions?ended=1")
            #expect(try await client.get("/", cookie: other).headers[.location] == "/login?ended=1")
            let page = try await client.get("/account/sessions?ended=1", cookie: current)
            #expect(page.text.contains("Signed out 1 other session."))
            #expect(!page.text.contains("Sign out everywhere else"), "nothing left to end")
            let hostile = try await client.get("/account/sessions?ended=%3Cscript%3E", cookie: current)
            #expect(hostile.status == .ok && !hostile.text.contains("Signed out"))
        }
        let audited = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'other_sessions_ended'")
        }
        #expect(audited == ["1"])
    }
}
