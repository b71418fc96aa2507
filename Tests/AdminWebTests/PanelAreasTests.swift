import AdminDomain
import CampaignDispatch
import Foundation
import ServiceLifecycle
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 37, point 1: each area lists its own background services and `buildApplication`
/// runs what the areas list. The expectation is docs/architecture.md's table of the group's
/// services, not the areas' code: a job an area forgets, or one listed twice, fails here.
@Suite(.timeLimit(.minutes(20))) struct PanelAreasWireThemselves {
    /// The named jobs (first cell in backticks) of "Services in the group".
    static func documentedJobs() throws -> [String] {
        let page = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## Services in the group").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        return section.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { line in
            line.split(separator: "`").dropFirst().first.map(String.init)
        }
    }

    @Test func theAreasRunEveryDocumentedJobOnceAndTheDispatcherOnce() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let services = panel.areas.services
        let named = services.compactMap { ($0 as? PeriodicJob)?.name }
        let documented = try Self.documentedJobs()
        #expect(documented.count >= 8, "the table was found: \(documented)")
        #expect(named.sorted() == documented.sorted())
        #expect(
            services.filter { $0 is CampaignDispatcher }.count == 1,
            "one dispatcher sends every campaign's and journey's pushes")
        #expect(services.filter { $0 is PushClientsService }.count == 1)
        // Every job reports to the one health record /health reads.
        #expect(Set(panel.areas.site.health.current.keys).isSuperset(of: documented))
    }

    /// Tests build the area they test: a panel built with support only serves the core (sign-in,
    /// /health) and support's pages, none of another area's routes, and runs none of another
    /// area's jobs. The paths are the site's, as a browser types them.
    @Test func aPanelBuiltWithSupportOnlyServesNoOtherAreasRoutesNorJobs() async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            #expect(try await client.get("/users", cookie: cookie).status == .ok)
            #expect(try await client.get("/activity", cookie: cookie).status == .ok)
            #expect(try await client.get("/health").status == .ok)
            for path in ["/campaigns", "/campaigns/new", "/journeys", "/reminders", "/"] {
                #expect(try await client.get(path, cookie: cookie).status == .notFound, "\(path)")
            }
        }
        let paths = panel.router().staffRoutes.map(\.path)
        #expect(paths.contains("/users") && !paths.contains { $0.hasPrefix("/campaigns") })
        let jobs = panel.areas.services.compactMap { ($0 as? PeriodicJob)?.name }
        #expect(jobs.sorted() == ["audit-flusher", "sweeper"], "the core's jobs only")
        #expect(!panel.areas.services.contains { $0 is CampaignDispatcher })
    }
}
