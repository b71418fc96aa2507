import Foundation
import Testing

@testable import AdminDomain

/// The domain refuses an experiment the draw cannot honour, whoever calls it (the web's
/// composer says the same earlier, in its own words): nothing is stored.
@Suite(.timeLimit(.minutes(20))) struct ExperimentRefusalTests {
    static let refused: [(CampaignExperiment, String)] = [
        (
            CampaignExperiment(variants: [
                VariantMessage(variant: .b, title: "B", body: "b"), VariantMessage(variant: .d, title: "D", body: "d"),
            ]), "without a gap"
        ),
        (CampaignExperiment(variants: [VariantMessage(variant: .c, title: "C", body: "c")]), "without a gap"),
        (CampaignExperiment(holdoutPercent: 51), "holdout must be 0 to 50"),
        (CampaignExperiment(goalDays: 0), "goal window must be 1 to 14"),
        (CampaignExperiment(testPercent: 20), "needs at least two variants"),
        (
            CampaignExperiment(
                variants: [VariantMessage(variant: .b, title: "B", body: "b")], testPercent: 20, winnerWaitHours: 73),
            "1 to 72 hours"
        ),
    ]

    @Test(arguments: 0..<refused.count)
    func anExperimentTheDrawCannotHonourIsRefusedAndNothingStored(_ index: Int) async throws {
        let fixture = try await ImpactFixture.make(reachable: 10, unreachable: 0)
        defer { fixture.temp.remove() }
        let (experiment, words) = Self.refused[index]
        await #expect {
            try await fixture.campaigns.create(
                CampaignDraft(title: "t", body: "b", experiment: experiment), by: .commandLine)
        } throws: { ($0 as? CampaignError)?.description.contains(words) == true }
        let stored = try await fixture.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_campaigns") ?? -1
        }
        #expect(stored == 0)
    }
}
