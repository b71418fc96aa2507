@testable import AdminWeb
import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(5))) struct RolesAndRoutes {
    /// TestPanel already has the admin; the others are created per test.
    static func email(_ role: Role) -> String { role == .admin ? TestPanel.email : "\(role.rawValue)@example.com" }

    private func panelWithEveryRole() async throws -> TestPanel {
        let panel = try await TestPanel()
        for role in Role.allCases where role != .admin {
            try await panel.services.admins.create(email: Self.email(role), password: TestPanel.password, role: role)
        }
        return panel
    }

    @Test func everyRouteAnswersEachRoleAsTheMatrixSays() async throws {
        let panel = try await panelWithEveryRole()
        defer { panel.remove() }
        try await panel.test { client in
            let routes = panel.services.staffRoutes.entries
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

                for role in Role.allCases {
                    let session = try await panel.signIn(client, email: Self.email(role))
                    let response = route.method == .get
                        ? try await client.get(route.path, cookie: session)
                        : try await client.postSigned(route.path, session: session)
                    if role.may(route.permission) {
                        #expect(response.status != .forbidden, "\(role) \(route.method) \(route.path)")
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
        let router = buildRouter(services: panel.services, publicDirectory: TestPaths.publicDirectory)
        let staff = StaffRoutes(
            group: router.group().add(middleware: RequireStaffMiddleware(services: panel.services))
                .group(context: StaffRequestContext.self),
            services: panel.services, registry: .init())
        staff.get(.favicon, requires: .manageStaff) { _, _ in "staff only" }
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
        let unwritten = try await panel.services.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'forbidden'") ?? -1
        }
        #expect(unwritten == 0, "refusals wait for the batch")
        try await panel.services.signIn.unauthenticatedEvents.flush()
        let rows = try await panel.services.database.read { db in
            try Row.fetchAll(db, sql: "SELECT actor_email, target, detail FROM panel_audit_log WHERE action = 'forbidden' ORDER BY id")
                .map { "\($0[0] as String)|\($0[1] as String)|\($0[2] as String)" }
        }
        #expect(rows == ["support@example.com|/static/favicon.svg|manageStaff for GET /static/favicon.svg (50 times)",
                         "marketing@example.com|/static/favicon.svg|manageStaff for GET /static/favicon.svg"])
    }

    /// The route table in docs/security.md ("Who may do what") is the matrix as documented:
    /// every registered route is a row with its permission and one yes or no per role, and no
    /// row is left over.
    @Test func theSecurityPageTableMatchesTheRegisteredRoutes() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        _ = buildRouter(services: panel.services, publicDirectory: TestPaths.publicDirectory)
        let page = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/security.md"), encoding: .utf8)
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `GET /") || $0.hasPrefix("| `POST /") }
        var documented: [String: [String]] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[cells[0]] = Array(cells.dropFirst())
        }
        let entries = panel.services.staffRoutes.entries
        #expect(entries.count == documented.count)
        for entry in entries {
            let cells = try #require(documented["`\(entry.method) \(entry.path)`"], "\(entry.method) \(entry.path) is not in docs/security.md")
            #expect(cells == ["`\(entry.permission.rawValue)`"] + Role.allCases.map { $0.may(entry.permission) ? "yes" : "no" },
                    "\(entry.method) \(entry.path)")
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
