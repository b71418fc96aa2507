import AdminDomain
import Foundation
import GRDB
import Testing

/// The holdout: drawn from the reachable users at the freeze, at the chosen share, and never
/// sent to. Expectations are SQL over the fixture's rows and the panel's member table.
@Suite(.timeLimit(.minutes(20))) struct HoldoutTests {
    @Test(arguments: [10, 5, 50])
    func aHoldoutOf20000ReachableUsersIsDrawnAtItsShareGetsNoDeliveryAndNothingIsSentToIt(percent: Int) async throws {
        let fixture = try await ImpactFixture.make(reachable: 20_000, unreachable: 400)
        defer { fixture.remove() }
        let id = try await fixture.launch(CampaignExperiment(holdoutPercent: percent, goal: .anyActivity))

        // One member row per reachable user, and none for anyone else.
        let (reachable, strays, missing) = try await fixture.sql { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(ImpactFixture.reachableUsersSQL))") ?? -1,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ?
                          AND user_id NOT IN (\(ImpactFixture.reachableUsersSQL))
                        """, arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM (\(ImpactFixture.reachableUsersSQL)) r
                        WHERE NOT EXISTS (SELECT 1 FROM panel_campaign_members m WHERE m.campaign_id = ?
                          AND m.user_id = r.id)
                        """, arguments: [id]) ?? -1
            )
        }
        #expect(reachable == 20_000)
        #expect(strays == 0 && missing == 0, "\(strays) members not reachable, \(missing) reachable users not members")

        let arms = try await fixture.arms(id)
        let held = arms["holdout", default: 0]
        let share = Double(held) / Double(reachable)
        #expect(abs(share - Double(percent) / 100) <= 0.02, "holdout share \(share) for \(percent)%")
        #expect(arms["a", default: 0] == reachable - held, "everyone else gets the campaign's message: \(arms)")

        // No delivery row for a held-out user; one for every reachable device of everyone else.
        let (heldDeliveries, deliveries, expectedDeliveries) = try await fixture.sql { db in
            (
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM panel_deliveries q
                        WHERE q.campaign_id = ? AND q.user_id IN (SELECT user_id FROM panel_campaign_members
                          WHERE campaign_id = ? AND arm = 'holdout')
                        """, arguments: [id, id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM devices d JOIN panel_campaign_members m ON m.user_id = d.user_id
                          AND m.campaign_id = ?
                        WHERE m.arm <> 'holdout' AND d.push_permission = 'granted' AND COALESCE(d.push_token, '') <> ''
                        """, arguments: [id]) ?? -1
            )
        }
        #expect(heldDeliveries == 0)
        #expect(deliveries == expectedDeliveries && deliveries > 0)

        // Everything that would be sent: none of it to the holdout.
        let heldUsers = Set(
            try await fixture.sql { db in
                try Int64.fetchAll(
                    db, sql: "SELECT user_id FROM panel_campaign_members WHERE campaign_id = ? AND arm = 'holdout'",
                    arguments: [id])
            })
        let claimed = try await fixture.claimAll(now: ImpactFixture.launchTime.addingTimeInterval(60))
        #expect(claimed.count == deliveries, "every delivery is claimed once")
        #expect(claimed.filter { heldUsers.contains($0.userID) }.isEmpty)
        #expect(Set(claimed.map(\.userID)).count == reachable - held)

        // The report counts the same people.
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: ImpactFixture.launchTime.addingTimeInterval(3_600))
        let report = try #require(try await tracker.report(id))
        #expect(report.holdout.users == held && report.recipients.users == reachable - held)
    }

    @Test func withoutAHoldoutEveryReachableUserIsARecipient() async throws {
        let fixture = try await ImpactFixture.make(reachable: 600)
        defer { fixture.remove() }
        let id = try await fixture.launch(CampaignExperiment())
        #expect(try await fixture.arms(id) == ["a": 600])
    }
}
