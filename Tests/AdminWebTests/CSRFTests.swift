import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct CrossSiteRequestForgery {
    private func rejections(_ panel: TestPanel) async throws -> [String] {
        try await panel.areas.auth.signIn.unauthenticatedEvents.flush()
        return try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'csrf_rejected' ORDER BY id")
        }
    }

    /// The CSRF token a signed-in page carries, as a form of it would send it.
    private func pageToken(_ client: some TestClientProtocol, _ session: String) async throws -> String {
        let page = try await client.get("/", cookie: session).text
        return String(try #require(page.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1))
    }

    @Test func signOutWithoutTheTokenIsRefusedAndTheSessionLives() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let missing = try await client.postForm("/logout", [], cookie: session)
            #expect(missing.status == .forbidden)
            #expect(missing.text.contains("This form is out of date"), "a refused form says why and what to do")
            let wrong = try await client.postForm(
                "/logout", [("_csrf", String(repeating: "x", count: 43))], cookie: session)
            #expect(wrong.status == .forbidden)
            #expect(try await client.get("/", cookie: session).status == .ok, "the session was not ended")
        }
        #expect(try await rejections(panel) == ["missing token", "wrong token"])
    }

    @Test func anotherOriginIsRefusedEvenWithTheToken() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let token = try await pageToken(client, session)
            for (header, value) in [
                (HTTPField.Name.origin, "http://evil.example"), (.origin, "null"),
                (.referer, "https://evil.example/page"),
            ] {
                let response = try await client.execute(
                    uri: "/logout", method: .post,
                    headers: [.cookie: session, .contentType: "application/x-www-form-urlencoded", header: value],
                    body: ByteBuffer(string: "_csrf=\(token)"))
                #expect(response.status == .forbidden, "\(header): \(value)")
            }
            let sameOrigin = try await client.execute(
                uri: "/logout", method: .post,
                headers: [
                    .cookie: session, .contentType: "application/x-www-form-urlencoded", .origin: "http://localhost",
                ],
                body: ByteBuffer(string: "_csrf=\(token)"))
            #expect(sameOrigin.status == .seeOther)
        }
        let rows = try await rejections(panel)
        #expect(rows == ["cross-origin (3 times)"], "one row per address and reason, with the count: \(rows)")
    }

    /// Issue 46, finding 11: the Origin check compared the host and port only, so a form from
    /// `https://HOST` passed on the plain-http panel. The scheme must match too: plain http
    /// here, https with `--secure-cookies` (whose cookies browsers send over https only), or
    /// what a trusted proxy forwards (`X-Forwarded-Proto`, or `proto=` of `Forwarded`).
    @Test func theOriginsSchemeMustBeThePanels() async throws {
        func logout(_ panel: TestPanel, origin: String, headers extra: HTTPFields = [:], live: Bool = false)
            async throws -> HTTPResponse.Status
        {
            try await panel.application().test(live ? .live : .router) { client in
                // Support signs in without a second factor, whatever the cookies are named.
                let session = try await panel.signIn(client, email: TestPanel.supportEmail)
                var headers: HTTPFields = [
                    .cookie: session, .contentType: "application/x-www-form-urlencoded", .origin: origin,
                ]
                headers.append(contentsOf: extra)
                let token = CSRFToken.forSession(String(session.drop { $0 != "=" }.dropFirst()))
                return try await client.execute(
                    uri: "/logout", method: .post, headers: headers, body: ByteBuffer(string: "_csrf=\(token)")
                ).status
            }
        }
        let plain = try await TestPanel(areas: [.dashboard])
        defer { plain.remove() }
        _ = try await plain.addStaff()
        #expect(try await logout(plain, origin: "https://localhost") == .forbidden, "https to a plain-http panel")
        #expect(try await logout(plain, origin: "http://localhost") == .seeOther)
        // A client's own X-Forwarded-Proto means nothing without a trusted proxy.
        let forged: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https"]
        #expect(try await logout(plain, origin: "https://localhost", headers: forged) == .forbidden)

        let secure = try await TestPanel(areas: [.dashboard], secureCookies: true)
        defer { secure.remove() }
        _ = try await secure.addStaff()
        #expect(try await logout(secure, origin: "http://localhost") == .forbidden, "http to a TLS-only panel")
        #expect(try await logout(secure, origin: "https://localhost") == .seeOther)

        var proxied = try await TestPanel(areas: [.dashboard])
        defer { proxied.remove() }
        proxied.configuration.trustedProxies = try TrustedProxies(["127.0.0.1/32"])
        proxied.rebuildAreas()
        _ = try await proxied.addStaff()
        #expect(try await logout(proxied, origin: "https://localhost", headers: forged, live: true) == .seeOther)
        #expect(
            try await logout(proxied, origin: "http://localhost", headers: forged, live: true) == .forbidden,
            "the proxy says https")
        var rfc = try await TestPanel(areas: [.dashboard])
        defer { rfc.remove() }
        rfc.configuration.trustedProxies = try TrustedProxies(["127.0.0.1/32"], header: .forwarded)
        rfc.rebuildAreas()
        _ = try await rfc.addStaff()
        let forwarded: HTTPFields = [HTTPField.Name("Forwarded")!: "for=203.0.113.5;proto=https"]
        #expect(try await logout(rfc, origin: "https://localhost", headers: forwarded, live: true) == .seeOther)
        #expect(try await logout(rfc, origin: "http://localhost", headers: forwarded, live: true) == .forbidden)
    }

    /// A field sent twice (the tryout's `name=a&name=b`) is not a stale form: it is refused
    /// as unreadable, with a sentence that says so, and nothing changes.
    @Test func aFieldSentTwiceIsRefusedAsUnreadableNotAsOutOfDate() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let token = try await pageToken(client, session)
            let twice = try await client.postForm(
                "/logout", [("_csrf", token), ("next", "/a"), ("next", "/b")], cookie: session)
            #expect(twice.status == .badRequest)
            #expect(twice.text.contains("could not be read (a field sent twice"))
            #expect(!twice.text.contains("out of date"))
            #expect(try await client.get("/", cookie: session).status == .ok, "the session was not ended")
        }
        #expect(try await rejections(panel) == ["unreadable form"])
    }

    /// The tryout's `_csrf=<token>%zz`: a token that cannot be decoded is refused with the
    /// sentence every broken escape gets, naming the field, not as an out-of-date form.
    @Test func aBrokenEscapeInTheTokenIsRefusedNamingTheField() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let token = try await pageToken(client, session)
            let broken = try await client.execute(
                uri: "/logout", method: .post,
                headers: [.cookie: session, .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(token)%zz"))
            #expect(broken.status == .badRequest)
            #expect(broken.text.contains("The field “_csrf” holds “%zz”"), "\(broken.text.prefix(2_000))")
            #expect(!broken.text.contains("out of date"))
            #expect(try await client.get("/", cookie: session).status == .ok, "the session was not ended")
        }
        #expect(try await rejections(panel) == ["unreadable form"])
    }

    @Test func signingInNeedsTheLoginPagesToken() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let credentials = [("email", TestPanel.email), ("password", TestPanel.password)]
            #expect(try await client.postForm("/login", credentials).status == .forbidden)
            let form = try await client.loginForm()
            #expect(form.cookie.hasPrefix("panel_csrf="))
            let forged = try await client.postForm(
                "/login", credentials + [("_csrf", SecureToken.random())], cookie: form.cookie)
            #expect(forged.status == .forbidden)
            #expect(
                try await client.postForm("/login", credentials + [("_csrf", form.token)], cookie: form.cookie).status
                    == .seeOther)
        }
    }

    /// A signed-in form once took the login form's double-submit pair, whose value anyone
    /// able to set a cookie chooses: with a session, only the session's token counts.
    @Test func aSignedInFormRefusesTheLoginFormsToken() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let chosen = "attacker-chosen-value-0123456789abcdefghijkl"
            let forged = try await client.postForm(
                "/logout", [("_csrf", chosen)], cookie: "\(session); panel_csrf=\(chosen)")
            #expect(forged.status == .forbidden)
            #expect(try await client.get("/", cookie: session).status == .ok, "the session was not ended")
            // The sign-in page still works for a browser that carries a session.
            let form = try await client.loginForm()
            let again = try await client.postForm(
                "/login",
                [
                    ("email", TestPanel.email), ("password", TestPanel.password),
                    ("_csrf", form.token),
                ], cookie: "\(session); \(form.cookie)")
            #expect(again.status == .seeOther)
        }
        #expect(try await rejections(panel) == ["wrong token"])
    }

    /// 2,000 forged POSTs once wrote 2,000 rows and slowed the backend's writes: now they
    /// are counted and written as one row per flush.
    @Test func aFloodOfForgedPostsCostsOneRow() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            var refused = 0
            for _ in 0..<2_000
            where try await client.postForm("/login", [("email", "x@example.com")]).status == .forbidden {
                refused += 1
            }
            #expect(refused == 2_000)
        }
        // The flusher in the service group may have written part of it meanwhile: a row per
        // five seconds on a slow machine, whose counts add up.
        let rows = try await rejections(panel)
        let counts = rows.compactMap { row in
            row.firstMatch(of: /^missing token(?: \((\d+) times\))?$/).map { match in match.1.flatMap { Int($0) } ?? 1 }
        }
        #expect(counts.count == rows.count && rows.count <= 20, "\(rows)")
        #expect(counts.reduce(0, +) == 2_000)
        #expect(try await panel.areas.auth.signIn.unauthenticatedEvents.flush() == 0, "nothing left to write")
    }

    @Test func theLoginPageReplacesAMalformedTokenCookie() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let page = try await client.get("/login", cookie: "panel_csrf=<script>")
            #expect(page.headers[.setCookie]?.hasPrefix("panel_csrf=") == true)
            #expect(!page.text.contains("<script>"))
            let kept = try await client.loginForm()
            let again = try await client.get("/login", cookie: kept.cookie)
            #expect(again.headers[.setCookie] == nil, "a good token is kept")
            #expect(again.text.contains("value=\"\(kept.token)\""))
        }
    }
}
