import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// One frequency cap across campaigns, however their launches overlap: checked against SQL
/// over the deliveries, by user.
@Suite(.timeLimit(.minutes(20))) struct FrequencyCapTests {
    static func prepare() async throws -> (TemporaryDatabase, PanelDatabase) {
        let temp = try await TemporaryDatabase.seeded(users: 300)
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "UPDATE notification_settings SET quiet_start = NULL, quiet_end = NULL")
        }
        return (temp, try await PanelDatabase.open(path: temp.path))
    }

    /// Claims and accepts everything due, as a dispatcher whose provider accepts all would.
    static func sendAll(_ database: PanelDatabase, audience: Audience) async throws {
        let outbox = DeliveryOutbox(database: database, audience: audience)
        while true {
            let claimed = try await outbox.claim(limit: 100)
            if claimed.isEmpty { return }
            try await outbox.record(claimed.map { ($0, .accepted(messageID: "m\($0.rowID)")) })
        }
    }

    /// The most campaign pushes any one user got (accepted or unknown), and the deliveries capped.
    static func mostPerUser(_ path: String) async throws -> (most: Int, capped: Int, users: Int) {
        try await DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT MAX(n) FROM (SELECT COUNT(DISTINCT campaign_id) AS n FROM panel_deliveries
                                            WHERE state IN ('accepted', 'unknown') GROUP BY user_id)
                        """) ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE state = 'capped'") ?? -1,
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(DISTINCT user_id) FROM panel_deliveries WHERE state IN ('accepted', 'unknown')")
                    ?? -1
            )
        }
    }

    @Test func threeCampaignsDueTheSameMinuteGiveNobodyMoreThanTheCap() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let audience = Audience(frequencyCap: 2)
        let campaigns = Campaigns(database: database, audience: audience, usersPerChunk: 41)
        var ids: [Int64] = []
        for name in ["one", "two", "three"] {
            ids.append(try await campaigns.create(CampaignDraft(title: name, body: "b"), by: .commandLine))
        }
        // All three launched before any audience is frozen, as three people pressing at once.
        for id in ids { try await campaigns.begin(id, schedule: .now, by: .commandLine) }
        try await campaigns.resumeLaunches()
        try await Self.sendAll(database, audience: audience)
        let (most, capped, users) = try await Self.mostPerUser(temp.path)
        #expect(most == 2, "no user had more than 2 campaign pushes")
        #expect(users > 100 && capped > 100, "the third push of each reachable user is under the frequency cap")
        let third = try await campaigns.progress(ids[2])
        #expect(third.capped == third.total && third.status == "finished", "\(third)")
    }

    @Test func twoCampaignsFrozenAtTheSameInstantShareTheCap() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let audience = Audience(frequencyCap: 2)
        let campaigns = Campaigns(database: database, audience: audience, usersPerChunk: 13)
        // Everyone had one campaign push already.
        let earlier = try await campaigns.create(CampaignDraft(title: "earlier", body: "b"), by: .commandLine)
        try await campaigns.beginAndFreeze(earlier, by: .commandLine)
        try await Self.sendAll(database, audience: audience)
        let a = try await campaigns.create(CampaignDraft(title: "a", body: "b"), by: .commandLine)
        let b = try await campaigns.create(CampaignDraft(title: "b", body: "b"), by: .commandLine)
        try await campaigns.begin(a, schedule: .now, by: .commandLine)
        try await campaigns.begin(b, schedule: .now, by: .commandLine)
        async let frozenA = campaigns.resumeLaunches()
        async let frozenB = campaigns.resumeLaunches()
        _ = try await (frozenA, frozenB)
        try await Self.sendAll(database, audience: audience)
        let (most, capped, _) = try await Self.mostPerUser(temp.path)
        #expect(most == 2)
        let perUser = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM (SELECT user_id FROM panel_deliveries WHERE campaign_id IN (?, ?)
                      AND state = 'accepted'
                                          GROUP BY user_id HAVING COUNT(DISTINCT campaign_id) > 1)
                    """, arguments: [a, b]) ?? -1
        }
        #expect(perUser == 0 && capped > 100, "each user got a or b, never both")
    }

    @Test func aDeliveryOverTheCapWhenClaimedIsNotSent() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let audience = Audience(frequencyCap: 2)
        let campaigns = Campaigns(database: database, audience: audience)
        let id = try await campaigns.create(
            CampaignDraft(title: "late", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
        let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
        #expect(frozen > 5)
        // Since the freeze, two other campaigns' pushes reached the first five users (another
        // panel, say); the cap is checked again when the delivery is claimed.
        let users = try await database.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT DISTINCT user_id FROM panel_deliveries WHERE campaign_id = ? ORDER BY user_id LIMIT 5",
                arguments: [id])
        }
        try await database.write { db in
            for other in [900_001, 900_002] {
                try db.execute(
                    sql: """
                        INSERT INTO panel_campaigns (id, title, body, ttl_seconds, segment, status, created_at)
                          VALUES (?, 'x', 'y', 60, '{}', 'finished', ?)
                        """, arguments: [other, SQLiteTime.string(Date())])
                for user in users {
                    try db.execute(
                        sql: """
                            INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                              VALUES (?, ?, ?, 'accepted', ?, ?)
                            """, arguments: [other, -user, user, SQLiteTime.string(Date()), SQLiteTime.string(Date())])
                }
            }
        }
        try await Self.sendAll(database, audience: audience)
        let states = try await DatabaseQueue(path: temp.path).read { db in
            try Row.fetchAll(
                db, sql: "SELECT user_id, state FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]
            )
            .map { (row: Row) -> (Int64, String) in (row[0], row[1]) }
        }
        #expect(states.filter { users.contains($0.0) }.allSatisfy { $0.1 == "capped" })
        #expect(states.filter { !users.contains($0.0) }.allSatisfy { $0.1 == "accepted" })
        let progress = try await campaigns.progress(id)
        #expect(progress.status == "finished" && progress.capped == states.filter { users.contains($0.0) }.count)
    }
}
