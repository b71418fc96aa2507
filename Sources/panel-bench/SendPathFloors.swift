import AdminDomain
import Foundation
import GRDB

/// The floors of issue 47's figures, each plain SQL on the same file in the same run: what
/// the preview, the freeze and the dashboard's full count would cost with none of the
/// panel's machinery. Written here, apart from the product, so that a figure is judged
/// against something it does not share code with.
enum SendPathFloors {
    /// The rules of a campaign to everyone as one SQL count: an active account, push and
    /// campaign pushes on (or no settings row), a granted device with a token and a known
    /// provider, no dead-token row for that token. The frequency cap is left out: the
    /// benchmark's file has no other campaign yet when it runs.
    static let reachable = """
        FROM devices d
        JOIN users u ON u.id = d.user_id
        LEFT JOIN notification_settings s ON s.user_id = d.user_id
        WHERE u.status = 'active'
          AND (s.user_id IS NULL OR (s.push_enabled = 1 AND s.marketing_opt_in = 1))
          AND d.push_permission = 'granted' AND d.push_token IS NOT NULL AND d.push_token <> ''
          AND d.push_provider IN ('fcm', 'apns')
          AND NOT EXISTS (SELECT 1 FROM panel_dead_tokens t
                          WHERE t.device_id = d.id AND t.token_sha256 = panel_sha256(d.push_token))
        """

    /// The simplest correct count of the preview: devices and users reachable.
    static func preview(_ database: PanelDatabase) async throws -> (seconds: Double, devices: Int, users: Int) {
        let clock = ContinuousClock()
        let began = clock.now
        let (devices, users) = try await database.read { db -> (Int, Int) in
            let row = try Row.fetchOne(
                db, sql: "SELECT COUNT(*) AS devices, COUNT(DISTINCT d.user_id) AS users " + reachable)
            return (row?["devices"] ?? 0, row?["users"] ?? 0)
        }
        return ((clock.now - began).seconds, devices, users)
    }

    /// The freeze's floor: the same rows by the plain SQL, written in chunks of the same
    /// users into copies of the members and deliveries tables with the panel's indexes (made
    /// from their own `CREATE` statements), each chunk a write transaction. The copies are
    /// dropped after. The triggers that keep the live counts are the panel's machinery, not
    /// the floor's: they are not copied.
    static func freeze(
        _ database: PanelDatabase, campaign: Int64,
        usersPerChunk: Int64 = Int64(FreezeChunks.timed.users)
    ) async throws -> (seconds: Double, deliveries: Int, chunks: Int, longest: Duration) {
        let clock = ContinuousClock()
        let tables = ["panel_campaign_members", "panel_deliveries"]
        try await database.write { db in
            for table in tables {
                try db.execute(sql: "DROP TABLE IF EXISTS bench_\(table)")
                let made = try String.fetchAll(
                    db,
                    sql: """
                        SELECT sql FROM sqlite_master
                        WHERE tbl_name = ? AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type DESC
                        """,
                    arguments: [table])
                for statement in made {
                    // `CREATE TABLE panel_x` and `CREATE INDEX panel_x_i ON panel_x(...)`: each name
                    // once more; what it references (the campaign) stays the same.
                    try db.execute(sql: statement.replacingOccurrences(of: table, with: "bench_\(table)"))
                }
            }
        }
        let last = try await database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0 }
        let stamp = SQLiteTime.string(Date())
        let began = clock.now
        var (deliveries, chunks, longest) = (0, 0, Duration.zero)
        var after: Int64 = 0
        while after < last {
            let (from, upTo) = (after, after + usersPerChunk)
            let (held, written) = try await database.write { db -> (Duration, Int) in
                let start = clock.now
                try db.execute(
                    sql: """
                        INSERT INTO bench_panel_campaign_members (campaign_id, user_id, arm, platform)
                        SELECT ?, d.user_id, 'a', MIN(d.platform) \(reachable) AND d.user_id > ? AND d.user_id <= ?
                        GROUP BY d.user_id
                        """, arguments: [campaign, from, upTo])
                try db.execute(
                    sql: """
                        INSERT INTO bench_panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                        SELECT ?, d.id, d.user_id, 'queued', ?, ? \(reachable) AND d.user_id > ? AND d.user_id <= ?
                        """, arguments: [campaign, stamp, stamp, from, upTo])
                return (clock.now - start, db.changesCount)
            }
            deliveries += written
            chunks += 1
            longest = max(longest, held)
            after = upTo
        }
        let seconds = (clock.now - began).seconds
        try await database.write { db in
            for table in tables { try db.execute(sql: "DROP TABLE IF EXISTS bench_\(table)") }
        }
        return (seconds, deliveries, chunks, longest)
    }

    /// One scan of each big table the dashboard counts: every row read once, in rowid order,
    /// through its table (not an index), with one column summed so that it is read.
    static func scan(_ database: PanelDatabase) async throws -> (seconds: Double, rows: Int) {
        let clock = ContinuousClock()
        let began = clock.now
        let scans = [
            ("users", "created_at"), ("devices", "last_seen_at"), ("food_items", "created_at"),
            ("documents", "created_at"), ("activity_events", "created_at"), ("reminders", "scheduled_for"),
            ("subscriptions", "started_at"), ("push_receipts", "created_at"),
        ]
        let rows = try await database.read { db in
            try scans.reduce(0) { total, scan in
                total
                    + (try Int.fetchOne(
                        db, sql: "SELECT COUNT(\(scan.1)) FROM \(scan.0) NOT INDEXED WHERE length(\(scan.1)) >= 0")
                        ?? 0)
            }
        }
        return ((clock.now - began).seconds, rows)
    }
}
