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
@Suite(.timeLimit(.minutes(2))) struct PanelAreasWireThemselves {
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
}
