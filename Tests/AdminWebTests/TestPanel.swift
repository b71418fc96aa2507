import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TestSupport
import Testing

@testable import AdminWeb

/// A panel on a freshly seeded database with one admin account, for `app.test(.router)`:
/// the core (site and sign-in) and the areas a test names, `TestPanel(areas: [.support])`,
/// built on what they depend on; every area by default, as the executable serves them.
/// `areas: []` serves the core only: sign-in, the staff and account pages, /health; signing
/// in leads to the dashboard ("/"), which suites that check a session on that page name.
struct TestPanel {
    static let email = "admin@example.com"
    static let password = "a long enough password"
    static let supportEmail = "help@example.com"
    /// The admin's TOTP key in every test panel: admins must have a second factor.
    static let totpSecret = "TESTKEYTESTKEYTESTKEYTESTKEY2345"

    let temp: TemporaryDatabase
    /// Read when the areas are built: a test that changes it calls `rebuildAreas()`.
    var configuration: PanelConfiguration
    /// The areas served.
    let names: Set<Area>
    var areas: Areas

    /// `untrusted`: both providers configured against a fake that refuses every key
    /// (`UntrustedPush`); `none`: no provider configured, as `serve` without credentials.
    enum Push { case untrusted, none }

    init(
        areas names: Set<Area> = Set(Area.allCases), users: Int = 60, sessionPolicy: SessionPolicy = SessionPolicy(),
        secureCookies: Bool = false,
        twoFactorPolicy: TwoFactorPolicy = TwoFactorPolicy(), push: Push = .untrusted, testUserDomains: [String] = [],
        jobHold: JobHold? = nil
    ) async throws {
        temp = try await TemporaryDatabase.seeded(users: users)
        var configuration = PanelConfiguration(
            databasePath: temp.path, publicDirectory: TestPaths.publicDirectory, scrypt: fastScryptForTests,
            sessionPolicy: sessionPolicy, dashboardRefreshInterval: 3_600, secureCookies: secureCookies,
            twoFactorPolicy: twoFactorPolicy)
        // Tests flush the counted events themselves: a flush of the background flusher in
        // the middle of a slow test (seen under the full suite's load) splits a count.
        configuration.auditFlushInterval = .seconds(3_600)
        configuration.templatesDirectory = TestPaths.repositoryRoot.appendingPathComponent("Templates").path
        configuration.eventStreamLength = .seconds(1)
        // A recount of a test's few hundred users is done in milliseconds, but on two cores shared
        // with the whole suite it took longer than 2 s: the launch then went the slow path.
        configuration.recountWait = .seconds(120)
        if push == .untrusted { configuration.push = try await UntrustedPush.providers() }
        configuration.testUserDomains = try TestUserDomains(testUserDomains)
        self.configuration = configuration
        self.names = names
        var database = try await PanelDatabase.open(path: temp.path)
        database.jobHold = jobHold
        areas = Areas(core: PanelCore(database: database, configuration: configuration), names: names)
        let admin = try await areas.auth.admins.create(email: Self.email, password: Self.password, role: .admin)
        try await areas.database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO panel_two_factor (admin_id, secret, confirmed_at) VALUES (?, ?, "
                    + "'2026-01-01 00:00:00')",
                arguments: [admin.id, Self.totpSecret])
        }
    }

    /// The areas again, on the same database, from `configuration` as changed since.
    mutating func rebuildAreas() {
        areas = Areas(core: PanelCore(database: areas.database, configuration: configuration), names: names)
    }

    /// A staff account of another role, with the test password and no second factor.
    @discardableResult
    func addStaff(_ email: String = TestPanel.supportEmail, role: Role = .support) async throws -> String {
        try await areas.auth.admins.create(email: email, password: Self.password, role: role)
        return email
    }

    /// Signs in as a browser would, through the code page when the account has two-factor.
    /// Tests sign in many times a minute, faster than codes change: the record of the last
    /// code used is cleared first, so the current code is accepted again.
    func signIn(
        _ client: some TestClientProtocol, email: String = TestPanel.email,
        password: String = TestPanel.password
    ) async throws -> String {
        let response = try await client.postLogin([("email", email), ("password", password)])
        guard response.status == .seeOther, let setCookie = response.headers[.setCookie] else {
            throw TestSignInFailed(status: response.status)
        }
        let cookie = String(setCookie.prefix { $0 != ";" })
        guard response.headers[.location]?.hasPrefix(SiteURL.secondFactor().path) == true else { return cookie }
        let code = try await currentCode(email: email)
        let form = try await client.loginForm()
        let second = try await client.postForm(
            SiteURL.secondFactor().path, [("code", code), ("_csrf", form.token)],
            cookie: "\(form.cookie); \(cookie)")
        guard second.status == .seeOther,
            let sessionCookie = second.headers[fields: .setCookie].first(where: { $0.value.hasPrefix("panel_session=") }
            )
        else { throw TestSignInFailed(status: second.status) }
        return String(sessionCookie.value.prefix { $0 != ";" })
    }

    /// The account's current TOTP code, made acceptable again.
    func currentCode(email: String) async throws -> String {
        let secret = try await areas.database.write { db in
            try db.execute(
                sql:
                    "UPDATE panel_two_factor SET last_step = NULL WHERE admin_id = (SELECT id FROM panel_admins "
                    + "WHERE email = ?)",
                arguments: [email])
            return try String.fetchOne(
                db,
                sql: "SELECT secret FROM panel_two_factor t JOIN panel_admins a ON a.id = t.admin_id WHERE a.email = ?",
                arguments: [email])
        }
        return TOTPCode.code(secret: try #require(secret), step: TOTPCode.step(at: Date()))
    }

    /// Runs `body` against the router with the panel's services running. The dashboard's and the
    /// reminders' first counts are made before the first request for one of their pages (or
    /// files), as a panel running for a while has them: those pages never wait for a count, and
    /// say "being counted" until it is in (`PagesNeverWaitOnJobs`, which passes `false`). Only
    /// then: counting for every test made the suite's 600 tests compete for the two cores.
    func test<Value>(
        firstCounts: Bool = true, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let areas = self.areas
        let counts = FirstCounts {
            if let dashboard = areas.dashboardIfServed { await dashboard.refresher.refresh(waitedOn: true) }
            if let reminders = areas.remindersIfServed { try await reminders.monitor.refresh() }
        }
        return try await application().test(.router) { client in
            try await body(firstCounts ? CountingFirst(client: client, counts: counts) : client)
        }
    }

    /// The application serving the core and the named areas; `logger` in place of the panel's.
    func application(logger: Logger? = nil) -> some ApplicationProtocol {
        guard let logger else { return buildApplication(core: areas.core, areas: areas.served) }
        let logged = Areas(
            core: PanelCore(database: areas.database, configuration: configuration, logger: logger), names: names)
        return buildApplication(core: logged.core, areas: logged.served)
    }

    /// The router serving the core and the named areas, and the signed-in routes.
    func router() -> (router: Router<PanelRequestContext>, staffRoutes: [StaffRoutes.Entry]) {
        buildRouter(core: areas.core, areas: areas.served)
    }

    func remove() {
        temp.remove()
    }
}

extension TestClientProtocol {
    func postForm(_ uri: String, _ fields: [(String, String)], cookie: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = cookie }
        let body = fields.map { "\($0.0)=\(formEncode($0.1))" }.joined(separator: "&")
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func get(_ uri: String, cookie: String? = nil) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
    }

    /// Opens the sign-in page: the double-submit cookie to send back and the token its form carries.
    func loginForm() async throws -> (cookie: String, token: String) {
        let page = try await get("/login")
        let setCookie = try #require(page.headers[.setCookie])
        let pair = String(setCookie.prefix { $0 != ";" })
        return (pair, String(pair.drop { $0 != "=" }.dropFirst()))
    }

    /// Posts the sign-in form as a browser would, with the page's token.
    func postLogin(_ fields: [(String, String)]) async throws -> TestResponse {
        let form = try await loginForm()
        return try await postForm("/login", fields + [("_csrf", form.token)], cookie: form.cookie)
    }

    /// A form's answer after post/redirect/get: the page it sends the browser to, opened with
    /// the session it set (a rotated token) or else `cookie`.
    func follow(_ response: TestResponse, cookie: String) async throws -> TestResponse {
        #expect(response.status == .seeOther, "a form that changes state answers with a redirect")
        let location = try #require(response.headers[.location])
        let session =
            response.headers[fields: .setCookie].map { String($0.value.prefix { $0 != ";" }) }
            .first { $0.hasPrefix("panel_session=") } ?? cookie
        return try await get(location, cookie: session)
    }

    /// Posts a form as a signed-in browser would: the session cookie and the session's token.
    func postSigned(_ uri: String, _ fields: [(String, String)] = [], session cookie: String) async throws
        -> TestResponse
    {
        let token = CSRFToken.forSession(String(cookie.drop { $0 != "=" }.dropFirst()))
        return try await postForm(uri, fields + [("_csrf", token)], cookie: cookie)
    }
}

struct TestSignInFailed: Error {
    let status: HTTPResponse.Status
}

func formEncode(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
