import AdminDomain
import Foundation
import GRDB
import Testing

/// Who opened: a member with a push that went out (accepted, sending or unknown) and an
/// 'opened' receipt for it, whether the receipt poller applied it before the report was
/// built or the tracker reads it later by id. Without a goal, the winner test's rule goes by it.
@Suite(.timeLimit(.minutes(20))) struct OpenedTests {
    static let start = ImpactFixture.launchTime

    /// Members per arm with an 'opened' receipt for a delivery that went out, by SQL.
    static func expectedOpened(_ id: Int64, _ fixture: ImpactFixture) async throws -> [String: Int] {
        try await fixture.sql { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT m.arm, COUNT(*) FROM panel_campaign_members m WHERE m.campaign_id = ? AND EXISTS (
                          SELECT 1 FROM panel_deliveries q JOIN push_receipts r
                            ON r.delivery_id = 'c' || q.campaign_id || '-' || q.id AND r.event = 'opened'
                          WHERE q.campaign_id = m.campaign_id AND q.user_id = m.user_id
                            AND q.state IN ('accepted', 'sending', 'unknown'))
                        GROUP BY m.arm
                        """, arguments: [id]
                ).map { (row: Row) -> (String, Int) in (row[0], row[1]) })
        }
    }

    static func opened(_ report: CampaignImpact) -> [String: Int] {
        var counts = ["holdout": report.holdout.opened, "rest": report.rest?.opened ?? 0]
        for row in report.variants { counts[row.variant.rawValue] = row.group.opened }
        return counts.filter { $0.value > 0 }
    }

    /// Receipts for the campaign's deliveries: opened for half of B's users and a sixth of A's,
    /// received for others, opened for the rest's held pushes and for failed ones, and ids
    /// that name no delivery of it. `phase` 0 or 1 takes the deliveries of even or odd id.
    static func writeReceipts(_ id: Int64, phase: Int64, _ fixture: ImpactFixture) async throws {
        try await fixture.backendWrite { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT q.id, q.user_id, m.arm FROM panel_deliveries q JOIN panel_campaign_members m
                      ON m.campaign_id = q.campaign_id AND m.user_id = q.user_id
                    WHERE q.campaign_id = ? AND q.id % 2 = ?
                    """, arguments: [id, phase])
            func receipt(_ delivery: String, _ event: String) throws {
                try db.execute(
                    sql:
                        "INSERT INTO push_receipts (delivery_id, event, created_at) "
                        + "VALUES (?, ?, '2026-11-18 12:30:00')",
                    arguments: [delivery, event])
            }
            for row in rows {
                let (delivery, user, arm) = (row[0] as Int64, row[1] as Int64, row[2] as String)
                let every: Int64 =
                    switch arm {
                    case "b": 2
                    case "a": 6
                    case "rest": 4
                    default: 0
                    }
                let opens = every > 0 && user % every == 0
                if opens {
                    try receipt("c\(id)-\(delivery)", "opened")
                } else if user % 3 == 1 {
                    try receipt("c\(id)-\(delivery)", "received")
                }
            }
            for hostile in ["", "garbage", "c\(id)-", "c\(id)-99999999", "c\(id + 1)-1", "c\(id)-1-1", "NULL"] {
                try receipt(hostile, "opened")
            }
            if let first = rows.first { try receipt("c\(id)-\(first[0] as Int64)", "OPENED") }
        }
    }

    @Test func openedCountsEqualTheReceiptsAndWithoutAGoalTheRuleGoesByThem() async throws {
        let fixture = try await ImpactFixture.make(reachable: 2_000)
        defer { fixture.remove() }
        let id = try await fixture.launch(
            CampaignExperiment(
                holdoutPercent: 10, variants: [VariantMessage(variant: .b, title: "Title B", body: "Body B")],
                testPercent: 40, winnerWaitHours: 6))
        // Every fifth push failed and every seventh timed out (unknown): the failed never went out.
        _ = try await fixture.claimAll(now: Self.start.addingTimeInterval(60)) { claimed in
            claimed.rowID % 5 == 0
                ? .failed(reason: "test")
                : claimed.rowID % 7 == 0 ? .unknown(reason: "timeout") : .accepted(messageID: "m")
        }
        // Half the receipts applied by the poller before the first report, half read later by id.
        try await Self.writeReceipts(id, phase: 0, fixture)
        try await ReceiptPoller(database: fixture.database).poll()
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        let now = Self.start.addingTimeInterval(3_600)
        try await tracker.refresh(now: now)
        let first = try await Self.expectedOpened(id, fixture)
        #expect(Self.opened(try #require(try await tracker.report(id))) == first)
        #expect(
            first["a", default: 0] > 0 && first["b", default: 0] > first["a", default: 0] && first["rest"] == nil
                && first["holdout"] == nil)

        try await Self.writeReceipts(id, phase: 1, fixture)
        try await tracker.refresh(now: now)
        let second = try await Self.expectedOpened(id, fixture)
        #expect(Self.opened(try #require(try await tracker.report(id))) == second)
        #expect(second["b", default: 0] > first["b", default: 0])
        // The poller applies them afterwards: nobody counted twice, and a restart agrees.
        try await ReceiptPoller(database: fixture.database).poll()
        try await tracker.refresh(now: now)
        #expect(Self.opened(try #require(try await tracker.report(id))) == second)
        let restarted = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await restarted.refresh(now: now)
        #expect(Self.opened(try #require(try await restarted.report(id))) == second)

        // No goal: the rule takes the best open rate, B's.
        try await tracker.refresh(now: Self.start.addingTimeInterval(6 * 3_600 + 60))
        #expect(try await fixture.campaigns.find(id)?.winner?.variant == .known(.b))
        let members = try await fixture.arms(id)
        let detail = try await fixture.campaigns.find(id)?.winner?.detail ?? ""
        #expect(
            detail.hasPrefix("variant B by the rule")
                && detail.contains("opened (\(second["b", default: -1]) of \(members["b", default: -1]))"),
            "\(detail)")
        #expect(!detail.contains("converted"))
    }
}
