import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Issue 47: the live page's counts are kept by triggers as deliveries are written. Whatever
/// is written (a freeze, moves of state and receipt, a campaign changed, rows deleted), the
/// kept counts equal a `GROUP BY` of the rows themselves; a campaign whose deliveries predate
/// the kept counts is counted from its rows.
@Suite(.timeLimit(.minutes(20))) struct KeptCounts {
    /// The rows' own counts, and the kept ones, of the campaigns that keep them.
    static func both(_ database: PanelDatabase) async throws -> (rows: [String], kept: [String]) {
        try await database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.campaign_id, d.state, d.receipt, COUNT(*) AS n FROM panel_deliveries d
                    JOIN panel_campaigns c ON c.id = d.campaign_id AND c.counts_kept = 1
                    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                    """
            ).map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)" }
            let kept = try Row.fetchAll(
                db,
                sql: """
                    SELECT campaign_id, state, receipt, count FROM panel_delivery_counts
                    WHERE count <> 0 ORDER BY 1, 2, 3
                    """
            ).map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)" }
            return (rows, kept)
        }
    }

    @Test func theKeptCountsEqualTheRowsAfterEveryKindOfWrite() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 120)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        var ids: [Int64] = []
        for title in ["one", "two"] {
            let id = try await campaigns.create(CampaignDraft(title: title, body: "b"), by: .commandLine)
            try await campaigns.beginAndFreeze(id, by: .commandLine)
            ids.append(id)
        }
        var (rows, kept) = try await Self.both(database)
        #expect(!rows.isEmpty, "the freeze wrote deliveries")
        #expect(kept == rows, "after the freeze")

        let states = DeliveryState.allCases.map(\.rawValue)
        var random = RoundsRandom(seed: 47)
        for round in 0..<40 {
            // Drawn here, so that the write's closure captures only constants.
            let draws = (0..<15).map { _ in (0..<4).map { _ in random.next() } }
            let campaignIDs = ids
            try await database.write { db in
                let all = try Int64.fetchAll(db, sql: "SELECT id FROM panel_deliveries ORDER BY id")
                guard !all.isEmpty else { return }
                for draw in draws {
                    var values = draw.makeIterator()
                    func next() -> UInt64 { values.next() ?? 0 }
                    let row = all[Int(next() % UInt64(all.count))]
                    switch next() % 6 {
                    case 0, 1:
                        try db.execute(
                            sql: "UPDATE panel_deliveries SET state = ? WHERE id = ?",
                            arguments: [states[Int(next() % UInt64(states.count))], row])
                    case 2:
                        try db.execute(
                            sql: "UPDATE panel_deliveries SET receipt = ? WHERE id = ?",
                            arguments: [Int(next() % 3), row])
                    case 3:
                        // State and receipt at once, and a write that changes neither.
                        try db.execute(
                            sql: "UPDATE panel_deliveries SET state = ?, receipt = ?, detail = 'x' WHERE id = ?",
                            arguments: [states[Int(next() % UInt64(states.count))], 2, row])
                        try db.execute(sql: "UPDATE panel_deliveries SET state = state WHERE id = ?", arguments: [row])
                    case 4:
                        // Moved to the other campaign, unless that one has the device already.
                        try db.execute(
                            sql: "UPDATE OR IGNORE panel_deliveries SET campaign_id = ? WHERE id = ?",
                            arguments: [campaignIDs[Int(next() % 2)], row])
                    default:
                        try db.execute(sql: "DELETE FROM panel_deliveries WHERE id = ?", arguments: [row])
                    }
                }
                // Many rows in one statement, as the claim and the sweep write them.
                try db.execute(
                    sql: "UPDATE panel_deliveries SET state = ? WHERE id % 7 = ?",
                    arguments: [states[round % states.count], round % 7])
            }
            (rows, kept) = try await Self.both(database)
            #expect(kept == rows, "after round \(round)")
        }
        for id in ids {
            let progress = try await campaigns.progress(id)
            let expected = try await database.read { db -> [Int] in
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*), SUM(state = 'accepted'), SUM(state = 'capped'), SUM(receipt >= 1),
                               SUM(receipt >= 2)
                        FROM panel_deliveries WHERE campaign_id = ?
                        """, arguments: [id])
                return (0..<5).map { (row?[$0] as Int?) ?? 0 }
            }
            #expect(
                [progress.total, progress.accepted, progress.capped, progress.received, progress.opened] == expected)
        }
    }

    /// A campaign with deliveries before the counts were kept (`counts_kept = 0`, as the
    /// migration leaves it) is counted from its rows, and its writes add nothing to the kept counts.
    @Test func aCampaignFromBeforeIsCountedFromItsRows() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 60)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "old", body: "b"), by: .commandLine)
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_campaigns SET counts_kept = 0 WHERE id = ?", arguments: [id])
        }
        try await campaigns.beginAndFreeze(id, by: .commandLine)
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_deliveries SET state = 'accepted', receipt = 1 WHERE id % 2 = 0")
        }
        let (total, accepted, received, kept) = try await database.read { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state = 'accepted'",
                    arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND receipt >= 1",
                    arguments: [id]) ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_delivery_counts") ?? -1
            )
        }
        #expect(total > 0)
        #expect(kept == 0)
        let progress = try await campaigns.progress(id)
        #expect(progress.total == total && progress.accepted == accepted && progress.received == received)
    }
}

/// A small deterministic generator, so that a failing round can be replayed.
struct RoundsRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
