import AdminDomain
import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 24's shape (1.31 devices a user, 85.5% granted, 80% opted in), small: the seed
/// flags draw it, and a campaign to everyone freezes exactly the devices the stated rules
/// (docs/campaigns.md, "Segments") let through, counted here in SQL of their own.
@Suite(.timeLimit(.minutes(20))) struct SeededShapeFreeze {
    static let now = TemporaryDatabase.seedNow
    static let shape = DemoShape(devicesPerUser: 1.31, granted: 0.855, optedIn: 0.8)

    @Test func theSeedFlagsDrawTheAskedShape() async throws {
        let temp = try await Self.seed(users: 4_000)
        defer { temp.remove() }
        let (users, devices, granted, optedIn, settings) = try await DatabaseQueue(path: temp.path).read { db in
            (
                try Double.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0,
                try Double.fetchOne(db, sql: "SELECT COUNT(*) FROM devices") ?? 0,
                try Double.fetchOne(db, sql: "SELECT COUNT(*) FROM devices WHERE push_permission = 'granted'") ?? 0,
                try Double.fetchOne(db, sql: "SELECT COUNT(*) FROM notification_settings WHERE marketing_opt_in = 1")
                    ?? 0,
                try Double.fetchOne(db, sql: "SELECT COUNT(*) FROM notification_settings") ?? 0
            )
        }
        #expect(abs(devices / users - 1.31) < 0.05, "\(devices / users) devices a user")
        #expect(abs(granted / devices - 0.855) < 0.02, "\(granted / devices) granted")
        #expect(abs(optedIn / settings - 0.8) < 0.03, "\(optedIn / settings) opted in")
    }

    @Test func aShapeTheSeederCannotDrawIsRefusedWithASentence() throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        #expect(throws: DemoSeedError.invalidShape("--granted must be a share between 0 and 1 (it was 1.5)")) {
            try DemoSeeder(userCount: 10, shape: DemoShape(granted: 1.5), now: Self.now).run(path: temp.path)
        }
    }

    @Test func theFrozenCountEqualsTheRulesCountedInSQL() async throws {
        let temp = try await Self.seed(users: 3_000)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        try await Self.addPanelHistory(database)
        let campaigns = Campaigns(database: database, usersPerChunk: 257)
        let id = try await campaigns.create(
            CampaignDraft(title: "Everyone", body: "Hello"), by: .commandLine, now: Self.now)
        let report = try await campaigns.beginAndFreeze(id, by: .commandLine, now: Self.now)
        let since = SQLiteTime.string(Self.now.addingTimeInterval(-7 * 86_400))
        let (queued, capped, expected, overCap) = try await database.read { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state = 'queued'",
                    arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state = 'capped'",
                    arguments: [id]) ?? -1,
                try Int.fetchOne(db, sql: Self.rules + " AND " + Self.underCap, arguments: [since]) ?? -2,
                try Int.fetchOne(db, sql: Self.rules + " AND NOT " + Self.underCap, arguments: [since]) ?? -2
            )
        }
        #expect(expected > 1_500, "the shape reaches most devices")
        #expect(overCap > 0, "the frequency cap was exercised")
        #expect(queued == expected)
        #expect(capped == overCap)
        #expect(report.deliveries == expected + overCap)
    }

    /// Devices of active accounts whose settings (when they have a row) allow pushes and
    /// marketing, with permission and a token, of a provider the panel speaks, whose current
    /// token no provider called dead.
    static let rules = """
        SELECT COUNT(*) FROM devices d JOIN users u ON u.id = d.user_id
        LEFT JOIN notification_settings s ON s.user_id = u.id
        WHERE u.status = 'active'
          AND (s.user_id IS NULL OR (s.push_enabled = 1 AND s.marketing_opt_in = 1))
          AND d.push_permission = 'granted' AND d.push_token IS NOT NULL AND d.push_token <> ''
          AND d.push_provider IN ('fcm', 'apns')
          AND NOT EXISTS (SELECT 1 FROM panel_dead_tokens t WHERE t.device_id = d.id AND t.reason <> 'old token')
        """
    /// Fewer than two other campaigns went out to the user in the seven days before now.
    static let underCap = """
        (SELECT COUNT(DISTINCT p.campaign_id) FROM panel_deliveries p
         WHERE p.user_id = u.id AND p.state IN ('accepted', 'unknown') AND p.updated_at >= ?) < 2
        """

    static func seed(users: Int) async throws -> TemporaryDatabase {
        let temp = try TemporaryDatabase()
        let path = temp.path
        _ = try await OffThePool.run {
            try DemoSeeder(userCount: users, seed: 11, shape: shape, now: now).run(path: path)
        }
        return temp
    }

    /// Dead tokens (one in 40 granted devices; one in 97 dead only under a token it no longer
    /// has) and two earlier campaigns: to users with an id divisible by 5 inside the week, to
    /// those divisible by 15 one of them a second too early to count.
    static func addPanelHistory(_ database: PanelDatabase) async throws {
        let tokens = try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, push_token FROM devices WHERE push_permission = 'granted' AND push_token <> ''"
            )
            .map { (id: $0[0] as Int64, token: $0[1] as String) }
        }
        let week = Self.now.addingTimeInterval(-7 * 86_400)
        try await database.write { db in
            for device in tokens where device.id % 40 == 0 || device.id % 97 == 0 {
                let stale = device.id % 40 != 0
                try db.execute(
                    sql: "INSERT INTO panel_dead_tokens VALUES (?, ?, 'fcm', ?, '2026-11-10 00:00:00')",
                    arguments: [
                        DeadTokens.hash(stale ? "old-\(device.token)" : device.token), device.id,
                        stale ? "old token" : "UNREGISTERED",
                    ])
            }
            try db.execute(
                sql: """
                    INSERT INTO panel_campaigns (id, title, body, ttl_seconds, segment, status, created_at) VALUES
                      (901, 'a', 'b', 60, '{}', 'finished', '2026-11-10 00:00:00'),
                      (902, 'a', 'b', 60, '{}', 'finished', '2026-11-11 00:00:00')
                    """)
            let users = try Row.fetchAll(
                db, sql: "SELECT user_id, MIN(id) FROM devices WHERE user_id % 5 = 0 GROUP BY user_id")
            for row in users {
                let user: Int64 = row[0]
                let device: Int64 = row[1]
                let second = user % 15 == 0 ? week.addingTimeInterval(-1) : week
                try db.execute(
                    sql: """
                        INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at) VALUES
                          (901, ?, ?, 'accepted', ?, ?), (902, ?, ?, 'unknown', ?, ?)
                        """,
                    arguments: [
                        device, user, SQLiteTime.string(week), SQLiteTime.string(week),
                        device, user, SQLiteTime.string(second), SQLiteTime.string(second),
                    ])
            }
        }
    }
}
