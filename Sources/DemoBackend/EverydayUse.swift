import AdminDomain
import DemoData
import GRDB

/// People going on using the app while the demo runs, at the pace of the seeded week: the
/// events of the seven whole days before the start, spread evenly over time, each a login by
/// the user of a random event of the last 30 days (so busy users come back more often).
/// Everyone is drawn alike, campaign recipients, holdouts and controls included, so a holdout
/// behaves as anyone who was sent nothing. Without it the demo's day went quiet after the seed
/// and a campaign's opens were most of "today".
public struct EverydayUse: Sendable {
    private var random: SeedRandom
    /// Events a second (`pace(now:in:)`).
    private let pace: Double
    private var owed = 0.0
    private var last: Int64?

    public init(seed: UInt64, pace: Double) {
        random = SeedRandom(seed: seed, stream: 0x4556_4552_5944_4159)
        self.pace = pace
    }

    /// Events a second of the seven whole days before `now`: read once, in a read, not in the
    /// backend's write transaction (a week of events is many rows on a large demo).
    public static func pace(now: Int64, in db: Database) throws -> Double {
        let week =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM activity_events WHERE created_at >= ? AND created_at < ?",
                arguments: [
                    SQLiteTime.string(secondsSinceEpoch: now - 8 * 86_400),
                    SQLiteTime.string(secondsSinceEpoch: now - 86_400),
                ]) ?? 0
        return Double(week) / Double(7 * 86_400)
    }

    /// Writes the logins owed since the last tick; returns how many.
    @discardableResult
    public mutating func tick(now: Int64, in db: Database) throws -> Int {
        defer { last = now }
        guard let last, now > last else { return 0 }
        owed += pace * Double(now - last)
        let due = min(Int(owed), 50)
        owed -= Double(due)
        guard due > 0 else { return 0 }
        let since = SQLiteTime.string(secondsSinceEpoch: now - 30 * 86_400)
        guard
            let low = try Int64.fetchOne(
                db, sql: "SELECT id FROM activity_events WHERE created_at >= ? ORDER BY created_at LIMIT 1",
                arguments: [since]),
            let high = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM activity_events"), high >= low
        else { return 0 }
        let stamp = SQLiteTime.string(secondsSinceEpoch: now)
        var written = 0
        for _ in 0..<due {
            let id = random.int64(low...high)
            guard
                let user = try Int64.fetchOne(
                    db, sql: "SELECT user_id FROM activity_events WHERE id >= ? ORDER BY id LIMIT 1",
                    arguments: [id])
            else { continue }
            try db.execute(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                arguments: [user, stamp])
            written += 1
        }
        return written
    }
}
