import AdminDomain
import Foundation
import GRDB
import Testing

/// A winner test's headline while the rest wait for the winner: they have been sent nothing,
/// so the lift is the test share's against the holdout. Issue 32 saw "−3.3 points,
/// distinguishable from none" while both variants were +17 and +21 against the holdout.
@Suite(.timeLimit(.minutes(20))) struct RestHeldHeadlineTests {
    static let start = ImpactFixture.launchTime

    @Test func whileTheRestIsHeldTheyAreNotRecipientsAndOnceReleasedTheyAre() async throws {
        let fixture = try await ImpactFixture.make(reachable: 1_000)
        defer { fixture.remove() }
        let id = try await fixture.launch(
            CampaignExperiment(
                holdoutPercent: 10, goal: .itemAdded, goalDays: 3,
                variants: [VariantMessage(variant: .b, title: "Title B", body: "Body B")],
                testPercent: 20, winnerWaitHours: 72))
        // Hand-made members: 100 held out (20 convert), 100 on A (37 convert), 100 on B (41
        // convert), 700 in the rest, who were sent nothing and convert nobody.
        try await DatabaseQueue(path: fixture.path).write { db in
            try db.execute(sql: "DELETE FROM panel_campaign_members WHERE campaign_id = ?", arguments: [id])
            try db.execute(
                sql: """
                    INSERT INTO panel_campaign_members (campaign_id, user_id, arm, platform)
                    SELECT ?, id, CASE WHEN id <= 100 THEN 'holdout' WHEN id <= 200 THEN 'a' WHEN id <= 300 THEN 'b'
                      ELSE 'rest' END, 'ios'
                    FROM users WHERE id <= 1000
                    """, arguments: [id])
        }
        let converters = Array(Int64(1)...20) + Array(Int64(101)...137) + Array(Int64(201)...241)
        try await fixture.backendWrite { db in
            for user in converters {
                try db.execute(
                    sql:
                        "INSERT INTO activity_events (user_id, kind, created_at) "
                        + "VALUES (?, 'item_added', '2026-11-18 13:00:00')",
                    arguments: [user])
            }
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(7_200))
        let held = try #require(try await tracker.report(id))
        #expect(held.restHeld == true)
        #expect(
            held.recipients.users == 200 && held.recipients.converted == 78, "the test share only: \(held.recipients)")
        #expect(held.holdout.users == 100 && held.holdout.converted == 20)
        let lift = try #require(held.lift)
        #expect(
            abs(lift.difference - 0.19) < 1e-9, "39% of the test share against 20% of the holdout: \(lift.difference)")
        #expect(lift.lower > 0, "the test share's lift is distinguishable from none")
        #expect(held.rest?.users == 700)
        #expect(held.platforms.first { $0.platform == "ios" }?.recipients.users == 200)
        #expect(held.days.map(\.recipients).reduce(0, +) == 78)

        // The winner goes to the rest: from then on they count as recipients, as before.
        try await fixture.campaigns.chooseWinner(
            id, variant: .b, figures: "by hand", by: .commandLine, byRule: false,
            now: Self.start.addingTimeInterval(7_300))
        try await tracker.refresh(now: Self.start.addingTimeInterval(7_400))
        let released = try #require(try await tracker.report(id))
        #expect(released.restHeld == false)
        #expect(released.recipients.users == 900 && released.recipients.converted == 78)
        #expect(released.lift == LiftInterval(converted: 78, of: 900, against: 20, of: 100))
    }
}
