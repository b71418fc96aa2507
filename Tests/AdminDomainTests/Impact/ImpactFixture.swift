import AdminDomain
import DemoData
import Foundation
import GRDB
import TestSupport

/// An app database made for the impact tests, with a known population: users 1…`reachable`
/// can get a campaign push (one iOS device, one Android device, or both; every fifth also
/// has a device without permission), and the next `unreachable` users cannot (no permission,
/// no device, push turned off, a suspended account). Nobody keeps quiet hours, so every
/// delivery is due at the send time. The test plays the backend through its own connection.
struct ImpactFixture {
    let temp: TemporaryDatabase
    let database: PanelDatabase
    var path: String { temp.path }
    var campaigns: Campaigns { Campaigns(database: database) }

    /// Every campaign of the tests is launched at this time: its send time, the goal window's start.
    static let launchTime = SQLiteTime.date("2026-11-18 12:00:00")!

    static func make(reachable: Int, unreachable: Int = 200) async throws -> ImpactFixture {
        let temp = try TemporaryDatabase()
        let (tables, indexes) = try AppSchema.statements()
        let backend = try DatabaseQueue(path: temp.path)
        _ = try await backend.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try await backend.write { db in
            for statement in tables + indexes { try db.execute(sql: statement) }
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :total)
                    INSERT INTO users (id, email, password_hash, status, created_at, last_active_at)
                    SELECT i, 'user' || i || '@impact.test', 'x', CASE WHEN i > :reachable AND i % 4 = 3
                      THEN 'suspended' ELSE 'active' END,
                           '2026-01-01 00:00:00', '2026-11-17 00:00:00' FROM n;
                    INSERT INTO notification_settings (user_id, push_enabled, marketing_opt_in)
                    SELECT id, CASE WHEN id > :reachable AND id % 4 = 2 THEN 0 ELSE 1 END, 1 FROM users;
                    -- Reachable users: iOS (i % 3 = 0), Android (i % 3 = 1), both (i % 3 = 2).
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    SELECT 3 * id, id, 'ios', 'apns', printf('%064x', id), 'granted', '2026-01-01 00:00:00',
                      '2026-11-17 00:00:00'
                    FROM users WHERE id <= :reachable AND id % 3 IN (0, 2);
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    SELECT 3 * id + 1, id, 'android', 'fcm', 'fcm-token-' || id, 'granted', '2026-01-01 00:00:00',
                      '2026-11-17 00:00:00'
                    FROM users WHERE id <= :reachable AND id % 3 IN (1, 2);
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    SELECT 3 * id + 2, id, 'android', 'fcm', NULL, 'denied', '2026-01-01 00:00:00',
                      '2026-11-17 00:00:00'
                    FROM users WHERE id <= :reachable AND id % 5 = 0;
                    -- Unreachable users: permission denied (i % 4 = 0), no device (1), push off (2), suspended (3).
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    SELECT 3 * id, id, 'ios', 'apns', CASE WHEN id % 4 = 0 THEN NULL ELSE printf('%064x', id) END,
                           CASE WHEN id % 4 = 0 THEN 'denied'
                             ELSE 'granted' END, '2026-01-01 00:00:00', '2026-11-17 00:00:00'
                    FROM users WHERE id > :reachable AND id % 4 <> 1;
                    """, arguments: ["total": reachable + unreachable, "reachable": reachable])
        }
        let database = try await PanelDatabase.open(path: temp.path)
        return ImpactFixture(temp: temp, database: database)
    }

    /// Reachable users by the schema's own rules, written here without the panel's code: an
    /// active account, push and marketing not turned off, a device with permission and a token.
    static let reachableUsersSQL = """
        SELECT u.id FROM users u WHERE u.status = 'active'
          AND NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = u.id AND (s.push_enabled = 0
            OR s.marketing_opt_in = 0))
          AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.push_permission = 'granted'
                      AND COALESCE(d.push_token, '') <> '' AND d.push_provider IN ('fcm', 'apns'))
        """

    /// Creates the campaign ("Title A", "Body A") and launches it at `launchTime`, freezing its audience.
    func launch(_ experiment: CampaignExperiment) async throws -> Int64 {
        let id = try await campaigns.create(
            CampaignDraft(title: "Title A", body: "Body A", experiment: experiment), by: .commandLine,
            now: Self.launchTime)
        try await campaigns.beginAndFreeze(id, by: .commandLine, now: Self.launchTime)
        return id
    }

    /// Claims until nothing is due at `now`, recording each with `outcome` (accepted unless
    /// told): everything that would be sent.
    func claimAll(now: Date, outcome: (ClaimedDelivery) -> DeliveryResult = { .accepted(messageID: "m\($0.rowID)") })
        async throws -> [ClaimedDelivery]
    {
        let outbox = DeliveryOutbox(database: database)
        var all: [ClaimedDelivery] = []
        while true {
            let claimed = try await outbox.claim(limit: 5_000, now: now)
            if claimed.isEmpty { return all }
            try await outbox.record(claimed.map { ($0, outcome($0)) }, now: now)
            all += claimed
        }
    }

    /// Reads through the test's own connection.
    func sql<T: Sendable>(_ read: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await DatabaseQueue(path: path).read(read)
    }

    /// Writes the backend's rows, check constraints off: hostile rows are written as they come.
    func backendWrite(_ write: @escaping @Sendable (Database) throws -> Void) async throws {
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try write(db)
        }
    }

    /// Members per arm, from `panel_campaign_members`.
    func arms(_ campaign: Int64) async throws -> [String: Int] {
        try await sql { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT arm, COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? GROUP BY arm
                        """, arguments: [campaign]
                ).map { (row: Row) -> (String, Int) in (row[0], row[1]) })
        }
    }

    func remove() { temp.remove() }
}
