import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Every action the audit log names is written by something a person (or the panel, for its
/// own campaign moves) does. The list of actions is docs/support.md's table, not the code's.
@Suite(.timeLimit(.minutes(20))) struct AuditCoverage {
    /// The backticked names in the table under "## The audit log" in docs/support.md.
    static func documentedActions() throws -> Set<String> {
        let page = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/support.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## The audit log").dropFirst().first)
        let table = section.split(separator: "\n").prefix { !$0.hasPrefix("- ") }.filter {
            $0.hasPrefix("| ") && !$0.hasPrefix("| area")
        }
        return Set(
            table.flatMap { row in
                // The second cell only: the first names the area.
                row.split(separator: "|").dropFirst().first.map { $0.matches(of: /`([a-z_]+)`/).map { String($0.1) } }
                    ?? []
            })
    }

    @Test func theSupportPageListsEveryAuditActionAndNoOther() throws {
        let documented = try Self.documentedActions()
        let coded = Set(AuditAction.allCases.map(\.rawValue))
        #expect(documented.count > 40, "the table was read")
        #expect(
            coded.subtracting(documented).isEmpty,
            "written but not documented: \(coded.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(coded).isEmpty,
            "documented but never written: \(documented.subtracting(coded).sorted())")
    }

    @Test func everyDocumentedActionIsWrittenByTheFlowThatCausesIt() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let helpEmail = try await panel.addStaff()
        let helpID = try #require(try await panel.areas.auth.admins.find(email: helpEmail)?.id)
        let marketing = try await panel.addStaff("market@example.com", role: .marketing)
        let (userID, userEmail) = try await Self.reachableUser(panel.areas.database)
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            try await Self.staffAndSignIn(panel, client, admin: admin, helpEmail: helpEmail, helpID: helpID)
            try await Self.ownAccountAndTwoFactor(panel, client, admin: admin, email: marketing)
            try await Self.looksAtUsers(client, admin: admin, userID: userID)
            try await Self.campaigns(panel, client, admin: admin, userID: userID, userEmail: userEmail)
            try await Self.journeys(client, admin: admin)
            // The global control group's share, set and set back.
            for percent in ["5", "0"] {
                #expect(
                    try await client.postSigned("/settings/global-control", [("percent", percent)], session: admin)
                        .status == .seeOther)
            }
            try await Self.throttling(panel, client, admin: admin, helpEmail: helpEmail)
        }
        try await panel.areas.auth.signIn.unauthenticatedEvents.flush()

        struct Audited: Sendable { let at: String, actorEmail: String?, action: String, target: String? }
        let rows = try await panel.areas.database.read { db in
            try Row.fetchAll(db, sql: "SELECT at, actor_email, action, target FROM panel_audit_log ORDER BY id")
                .map {
                    Audited(at: $0["at"], actorEmail: $0["actor_email"], action: $0["action"], target: $0["target"])
                }
        }
        let written = Set(rows.map(\.action))
        let missing = try Self.documentedActions().subtracting(written)
        #expect(missing.isEmpty, "no row for \(missing.sorted())")
        func row(_ action: AuditAction) -> Audited? { rows.first { $0.action == action.rawValue } }
        for action: AuditAction in [.roleChanged, .adminDisabled, .adminEnabled, .sessionsEnded] {
            let found = try #require(row(action), "\(action)")
            #expect(found.actorEmail == TestPanel.email && found.target == "staff:\(helpID)", "\(action)")
        }
        #expect(row(.signOut)?.actorEmail == helpEmail)
        #expect(
            row(.signInLocked)?.target?.hasPrefix("address:") == true,
            "ten failures from one address lock the address first")
        #expect(row(.userViewed)?.target == "user:\(userID)" && row(.userViewed)?.actorEmail == TestPanel.email)
        #expect(row(.twoFactorEnabled)?.actorEmail == marketing)
        #expect(row(.campaignFinished)?.actorEmail == "panel", "the panel's own move")
        #expect(rows.allSatisfy { SQLiteTime.date($0.at) != nil && AuditAction(rawValue: $0.action) != nil })
    }

    /// A user a campaign can reach, found by plain SQL.
    static func reachableUser(_ database: PanelDatabase) async throws -> (Int64, String) {
        try #require(
            try await database.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT u.id, u.email FROM users u JOIN devices d ON d.user_id = u.id
                          LEFT JOIN notification_settings s ON s.user_id = u.id
                        WHERE u.status = 'active' AND d.push_permission = 'granted' AND d.push_token <> ''
                          AND d.push_provider IN ('fcm', 'apns')
                          AND COALESCE(s.push_enabled, 1) = 1 AND COALESCE(s.marketing_opt_in, 1) = 1
                          AND s.quiet_start IS NULL LIMIT 1
                        """
                ).map { (row: Row) -> (Int64, String) in (row["id"], row["email"]) }
            })
    }

    /// Staff accounts, sign-in, throttling, refusals.
    static func staffAndSignIn(
        _ panel: TestPanel, _ client: some TestClientProtocol, admin: String, helpEmail: String, helpID: Int64
    ) async throws {
        #expect(
            try await client.postSigned("/admins/\(helpID)/role", [("role", "marketing")], session: admin).status
                == .seeOther)
        #expect(try await client.postSigned("/admins/\(helpID)/disable", session: admin).status == .seeOther)
        #expect(try await client.postSigned("/admins/\(helpID)/enable", session: admin).status == .seeOther)
        #expect(
            try await client.postSigned("/admins/\(helpID)/role", [("role", "support")], session: admin).status
                == .seeOther)
        let help = try await panel.signIn(client, email: helpEmail)
        #expect(try await client.get("/admins", cookie: help).status == .forbidden)
        #expect(try await client.postForm("/logout", [], cookie: help).status == .forbidden, "no token: refused")
        #expect(try await client.postSigned("/admins/\(helpID)/end-sessions", session: admin).status == .seeOther)
        let again = try await panel.signIn(client, email: helpEmail)
        _ = try await client.postSigned("/logout", session: again)
        let created = try await client.postSigned(
            "/admins/create", [("email", "new.person@example.com"), ("role", "support")], session: admin)
        #expect(created.status == .seeOther)
        let newID = try #require(try await panel.areas.auth.admins.find(email: "new.person@example.com")?.id)
        #expect(try await client.postSigned("/admins/\(newID)/reset-password", session: admin).status == .seeOther)
    }

    /// Wrong passwords, last: they slow every later sign-in from this address.
    static func throttling(_ panel: TestPanel, _ client: some TestClientProtocol, admin: String, helpEmail: String)
        async throws
    {
        // Two wrong passwords at once: the second comes inside the wait and is throttled.
        for _ in 1...2 {
            _ = try await client.postLogin([("email", "new.person@example.com"), ("password", "wrong wrong wrong")])
        }
        // Ten wrong passwords from one place lock that pair. The exponential wait between
        // tries (at most 64 s) is skipped instead of slept through.
        for _ in 1...10 {
            _ = try await client.postLogin([("email", helpEmail), ("password", "wrong wrong wrong")])
            let earlier = SQLiteTime.string(Date().addingTimeInterval(-70))
            try await panel.areas.database.write { db in
                try db.execute(
                    sql: "UPDATE panel_login_throttle SET last_failure_at = ? WHERE locked_until IS NULL",
                    arguments: [earlier])
            }
        }
        let cleared = try await client.postSigned(
            "/admins/sign-in-failures/clear", [("kind", "pair"), ("email", helpEmail), ("address", "unknown")],
            session: admin)
        #expect(cleared.headers[.location]?.contains("cleared") == true)
    }

    /// One's own password, sessions and second factor, as marketing.
    static func ownAccountAndTwoFactor(
        _ panel: TestPanel, _ client: some TestClientProtocol, admin: String, email: String
    ) async throws {
        var session = try await panel.signIn(client, email: email)
        let other = try await panel.signIn(client, email: email)
        _ = other
        let chosen = "another long enough password"
        let changed = try await client.postSigned(
            "/account/password", [("current", TestPanel.password), ("password", chosen), ("repeat", chosen)],
            session: session)
        #expect(changed.status == .seeOther)
        session = try await panel.signIn(client, email: email, password: chosen)
        _ = try await panel.signIn(client, email: email, password: chosen)
        #expect(
            try await client.postSigned("/account/sessions/end-others", [("password", chosen)], session: session).status
                == .seeOther)

        func enrol() async throws {
            #expect(try await client.postSigned("/account/two-factor/begin", session: session).status == .seeOther)
            let code = try await panel.currentCode(email: email)
            let enabled = try await client.postSigned(
                "/account/two-factor/confirm", [("code", code), ("password", chosen)], session: session)
            #expect(enabled.status == .seeOther)
            session =
                enabled.headers[fields: .setCookie].map { String($0.value.prefix { $0 != ";" }) }
                .first { $0.hasPrefix("panel_session=") } ?? session
        }
        try await enrol()
        let codes = try await client.follow(
            try await client.postSigned(
                "/account/two-factor/recovery-codes",
                [("code", try await panel.currentCode(email: email))], session: session),
            cookie: session)
        let recovery = try #require(
            codes.text.firstMatch(of: /<li>([0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{6})<\/li>/)
        ).1
        // The second step, once with a wrong code and once with a recovery code.
        let first = try await client.postLogin([("email", email), ("password", chosen)])
        let challenge = String(try #require(first.headers[.setCookie]).prefix { $0 != ";" })
        for code in ["000000", String(recovery)] {
            let form = try await client.loginForm()
            _ = try await client.postForm(
                "/login/code", [("code", code), ("_csrf", form.token)], cookie: "\(form.cookie); \(challenge)")
        }
        let off = try await client.postSigned(
            "/account/two-factor/disable", [("code", try await panel.currentCode(email: email))], session: session)
        #expect(off.status == .seeOther)
        try await enrol()
        let id = try #require(try await panel.areas.auth.admins.find(email: email)?.id)
        #expect(try await client.postSigned("/admins/\(id)/reset-two-factor", session: admin).status == .seeOther)
    }

    /// Support's looks at users' data, and the audit log's own export.
    static func looksAtUsers(_ client: some TestClientProtocol, admin: String, userID: Int64) async throws {
        for path in [
            "/users?q=a", "/users/\(userID)", "/users/\(userID)/activity", "/activity?bucket=active",
            "/activity.csv?bucket=active",
            "/audit.csv",
        ] {
            #expect(try await client.get(path, cookie: admin).status == .ok, "\(path)")
        }
    }

    /// A campaign's whole life through the pages, and the panel's own moves the dispatcher makes.
    static func campaigns(
        _ panel: TestPanel, _ client: some TestClientProtocol, admin: String, userID: Int64, userEmail: String
    ) async throws {
        let campaigns = try panel.areas.campaigns.campaigns
        #expect(
            try await client.postSigned("/campaigns/test-users", [("email", userEmail)], session: admin).status
                == .seeOther)
        // An email no app user has is refused, and the refusal audited.
        #expect(
            try await client.postSigned("/campaigns/test-users", [("email", "nobody@nowhere.test")], session: admin)
                .status == .badRequest)
        #expect(try await client.get("/campaigns/test-users", cookie: admin).status == .ok)
        let created = try await client.postSigned(
            "/campaigns/new", [("title", "Hi"), ("body", "b"), ("ttl", "86400"), ("when", "now")], session: admin)
        let path = String(try #require(created.headers[.location]).prefix { $0 != "?" })
        let id = try #require(Int64(path.split(separator: "/").last ?? ""))
        _ = try await CampaignPages.waitForPreview(client, path, cookie: admin)
        #expect(
            try await client.postSigned(
                "/campaigns/\(id)/edit", [("title", "Hello"), ("body", "b"), ("ttl", "86400"), ("when", "now")],
                session: admin
            ).status == .seeOther)
        // No provider is configured here: the test push is tried and reported, then refused
        // for a user who is not a test user.
        _ = try await client.postSigned("/campaigns/\(id)/test-send", [("user", String(userID))], session: admin)
        #expect(
            try await client.postSigned("/campaigns/test-users/\(userID)/remove", session: admin).status == .seeOther)
        _ = try await client.postSigned("/campaigns/\(id)/test-send", [("user", String(userID))], session: admin)
        let duplicated = try #require(
            try await client.postSigned("/campaigns/\(id)/duplicate", session: admin).headers[.location])
        let copy = try #require(Int64(duplicated.split(separator: "/").last?.prefix { $0 != "?" } ?? ""))
        #expect(try await client.postSigned("/campaigns/\(copy)/delete", session: admin).status == .seeOther)
        // Sent now with no provider: frozen, then stopped by the panel.
        _ = try await CampaignPages.waitForPreview(client, path, cookie: admin)
        let confirmation = try await client.get("/campaigns/\(id)/confirm", cookie: admin)
        #expect(
            try await client.postSigned(
                "/campaigns/\(id)/confirm",
                [("counted_at", try #require(MarketingPagesAgree.stamp(confirmation.text)))],
                session: admin
            ).status == .seeOther)
        // Tomorrow: frozen and sending, so it can be paused, resumed and cancelled.
        // Premium users here and free users below: each reaches users who have had one campaign
        // this week, whichever freezes first, so the frequency cap (two) refuses neither.
        let later = try await campaigns.create(
            CampaignDraft(title: "Later", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
        try await campaigns.beginAndFreeze(later, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        // Variants with a test share: the winner is chosen by hand and the report downloaded.
        let test = try await campaigns.create(
            CampaignDraft(
                title: "A", body: "a", segment: CampaignSegment(plan: .free),
                experiment: CampaignExperiment(
                    holdoutPercent: 10, goal: .anyActivity,
                    variants: [VariantMessage(variant: .b, title: "B", body: "b")], testPercent: 20, winnerWaitHours: 24
                )),
            by: .commandLine)
        try await campaigns.beginAndFreeze(test, by: .commandLine)
        let settled = try await eventually(within: .seconds(60), every: .milliseconds(50)) {
            let statuses = try await [id, later, test].asyncMap { try await campaigns.find($0)?.status.known }
            return statuses[0] == .paused && statuses[1] == .sending
                && (statuses[2] == .paused || statuses[2] == .sending)
        }
        #expect(settled, "the dispatcher froze the campaigns")
        #expect(try await client.postSigned("/campaigns/\(later)/pause", session: admin).status == .seeOther)
        // Every delivery settled while it was paused (here by hand): the resume finishes it.
        try await panel.areas.database.write { db in
            try db.execute(
                sql: "UPDATE panel_deliveries SET state = 'failed' WHERE campaign_id = ?", arguments: [later])
        }
        #expect(try await client.postSigned("/campaigns/\(later)/resume", session: admin).status == .seeOther)
        #expect(try await campaigns.find(later)?.status.known == .finished)
        #expect(try await client.postSigned("/campaigns/\(id)/cancel", session: admin).status == .seeOther)
        #expect(
            try await client.postSigned(
                "/campaigns/\(test)/winner", [("variant", "b"), ("confirm", "yes")], session: admin
            ).status == .seeOther)
        #expect(try await client.get("/campaigns/\(test)/report.csv", cookie: admin).status == .ok)
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}

extension AuditCoverage {
    /// A journey through every move its page offers, its report downloaded, and a draft deleted.
    static func journeys(_ client: some TestClientProtocol, admin: String) async throws {
        let fields = JourneyPages.winBack
        let created = try await client.postSigned("/journeys/new", fields, session: admin)
        let id = try JourneyPages.id(from: created)
        #expect(try await client.postSigned("/journeys/\(id)/edit", fields, session: admin).status == .seeOther)
        for action in ["activate", "pause", "resume", "end"] {
            #expect(
                try await client.postSigned("/journeys/\(id)/\(action)", session: admin).status == .seeOther,
                "\(action)")
        }
        #expect(try await client.get("/journeys/\(id)/report.csv", cookie: admin).status == .ok)
        let other = try JourneyPages.id(from: try await client.postSigned("/journeys/new", fields, session: admin))
        #expect(try await client.postSigned("/journeys/\(other)/delete", session: admin).status == .seeOther)
    }
}
