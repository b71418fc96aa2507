import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct RolesAndRoutes {
    /// TestPanel already has the admin; the others are created per test.
    static func email(_ role: Role) -> String { role == .admin ? TestPanel.email : "\(role.rawValue)@example.com" }

    private func panelWithEveryRole() async throws -> TestPanel {
        let panel = try await TestPanel()
        for role in Role.allCases where role != .admin {
            try await panel.areas.auth.admins.create(email: Self.email(role), password: TestPanel.password, role: role)
        }
        return panel
    }

    @Test func everyRouteAnswersEachRoleAsTheMatrixSays() async throws {
        let panel = try await panelWithEveryRole()
        defer { panel.remove() }
        let documented = try Self.securityPageTable()
        let routes = panel.router().staffRoutes
        try await panel.test { client in
            #expect(routes.count >= 2)
            for route in routes {
                // Without a session: sent to sign in (a POST carrying the sign-in page's token).
                let anonymous: TestResponse
                if route.method == .get {
                    anonymous = try await client.get(route.path)
                } else {
                    let form = try await client.loginForm()
                    anonymous = try await client.postForm(route.path, [("_csrf", form.token)], cookie: form.cookie)
                }
                #expect(anonymous.status == .seeOther, "\(route.method) \(route.path) without a session")
                #expect(anonymous.headers[.location]?.hasPrefix("/login") == true)

                // The expectation is the documented table, not the code the router calls.
                let allowed = try #require(
                    documented["\(route.method) \(route.path)"]?.allowed,
                    "\(route.method) \(route.path) is not in docs/security.md")
                for role in Role.allCases {
                    let session = try await panel.signIn(client, email: Self.email(role))
                    let response =
                        route.method == .get
                        ? try await client.get(route.path, cookie: session)
                        : try await client.postSigned(route.path, session: session)
                    if try #require(allowed[role] as Bool?, "docs/security.md has no column for \(role)") {
                        // Served: whatever the handler makes of a placeholder like `:id`, never a
                        // refusal and never a failure.
                        #expect(
                            response.status != .forbidden && response.status.code < 500,
                            "\(role) \(route.method) \(route.path): \(response.status)")
                    } else {
                        #expect(response.status == .forbidden, "\(role) \(route.method) \(route.path)")
                    }
                }
            }
        }
    }

    @Test func aRouteOutsideTheRoleIsRefusedAndAudited() async throws {
        let panel = try await panelWithEveryRole()
        defer { panel.remove() }
        let router = panel.router().router
        let stash = FormStash()
        let cookies = panel.areas.site.cookies
        var staff = StaffRoutes(
            refusals: panel.areas.auth.signIn.unauthenticatedEvents, stash: stash, stashCookie: cookies.keptForm,
            exports: panel.areas.site.exports)
        staff.get(.favicon, requires: .manageStaff) { _, _ in "staff only" }
        staff.register(
            on: router.group()
                .add(
                    middleware: RequireStaffMiddleware(
                        sessionCookie: cookies.session, sessions: panel.areas.auth.signIn.sessions,
                        forms: staff.forms, stash: stash, stashCookie: cookies.keptForm)
                )
                .group(context: StaffRequestContext.self))
        try await Application(router: router).test(.router) { client in
            for role in Role.allCases {
                let cookie = try await panel.signIn(client, email: Self.email(role))
                // Refused again and again: counted, not written a row at a time.
                for _ in 0..<(role == .support ? 50 : 1) {
                    let response = try await client.get(SiteURL.favicon.path, cookie: cookie)
                    #expect(response.status == (role == .admin ? .ok : .forbidden), "\(role)")
                }
            }
        }
        let unwritten = try await panel.areas.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'forbidden'") ?? -1
        }
        #expect(unwritten == 0, "refusals wait for the batch")
        try await panel.areas.auth.signIn.unauthenticatedEvents.flush()
        let rows = try await panel.areas.database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT actor_email, target, detail FROM panel_audit_log WHERE action = 'forbidden' ORDER BY id"
            )
            .map { "\($0[0] as String)|\($0[1] as String)|\($0[2] as String)" }
        }
        #expect(
            rows == [
                "support@example.com|/static/favicon.svg|manageStaff for GET /static/favicon.svg (50 times)",
                "marketing@example.com|/static/favicon.svg|manageStaff for GET /static/favicon.svg",
            ])
    }

    /// The route table in docs/security.md ("Who may do what"), by "METHOD /path": the
    /// permission named and, per role, whether the table says yes. The columns are read from
    /// the table's own header.
    static func securityPageTable() throws -> [String: (permission: String, allowed: [Role: Bool])] {
        let page = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/security.md"), encoding: .utf8)
        func cells(_ line: Substring) -> [String] {
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let lines = page.split(separator: "\n")
        let header = try #require(lines.first { $0.hasPrefix("| route | permission |") }.map(cells))
        var table: [String: (permission: String, allowed: [Role: Bool])] = [:]
        for line in lines where line.hasPrefix("| `GET /") || line.hasPrefix("| `POST /") {
            let row = cells(line)
            try #require(row.count == header.count, "\(line)")
            var allowed: [Role: Bool] = [:]
            for (name, cell) in zip(header.dropFirst(2), row.dropFirst(2)) {
                let role = try #require(Role(rawValue: name), "column \(name)")
                try #require(cell == "yes" || cell == "no", "\(line)")
                allowed[role] = cell == "yes"
            }
            table[row[0].trimmingCharacters(in: ["`"])] = (row[1].trimmingCharacters(in: ["`"]), allowed)
        }
        return table
    }

    /// The table is the matrix as documented: every registered route is a row with its
    /// permission and one yes or no per role that `Role.permissions` agrees with, and no row
    /// is left over.
    @Test func theSecurityPageTableMatchesTheRegisteredRoutes() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let entries = panel.router().staffRoutes
        let documented = try Self.securityPageTable()
        #expect(entries.count == documented.count)
        for entry in entries {
            let row = try #require(
                documented["\(entry.method) \(entry.path)"], "\(entry.method) \(entry.path) is not in docs/security.md")
            #expect(row.permission == entry.permission.rawValue, "\(entry.method) \(entry.path)")
            for role in Role.allCases {
                #expect(row.allowed[role] == role.may(entry.permission), "\(role) \(entry.method) \(entry.path)")
            }
        }
    }

    @Test func marketingNeverSeesIndividualProfiles() {
        #expect(!Role.marketing.may(.viewUserProfiles))
        #expect(!Role.marketing.may(.exportUserLists))
        #expect(!Role.support.may(.manageCampaigns))
        #expect(!Role.support.may(.manageStaff) && !Role.marketing.may(.readAuditLog))
        #expect(Role.admin.permissions == Set(Permission.allCases))
    }
}
