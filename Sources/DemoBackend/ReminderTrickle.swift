import AdminDomain
import DemoData
import GRDB

/// New reminders falling due all the time, so that the health page's last hour is never
/// empty: about `perSecond` a second, each for a live item (not deleted, food not consumed)
/// of a random active user, due a few seconds to three minutes on, as the backend schedules
/// them (the seed's own fall due at 09:00 UTC only).
public struct ReminderTrickle: Sendable {
    public static let daysBefore: [Int64] = [30, 15, 7, 1, 0]
    /// Users tried for each reminder: a user without a live item is passed over.
    static let attempts = 5
    /// A pause (a stalled machine, a suspended laptop) adds no burst of more than this.
    static let longestGap: Int64 = 10

    public let perSecond: Double
    private var lastTick: Int64?
    private var random: SeedRandom

    public init(perSecond: Double = 1, seed: UInt64) {
        self.perSecond = perSecond
        random = SeedRandom(seed: seed, stream: 0)
    }

    /// Inserts the reminders for the time since the last tick; returns how many.
    @discardableResult
    public mutating func tick(now: Int64, in db: Database) throws -> Int {
        let elapsed = lastTick.map { min(max(0, now - $0), Self.longestGap) } ?? 2
        lastTick = now
        let expected = perSecond * Double(elapsed)
        let count = Int(expected) + (random.chance(expected - expected.rounded(.down)) ? 1 : 0)
        guard count > 0, let lastUser = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users"), lastUser > 0 else {
            return 0
        }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                VALUES (?, ?, ?, ?, ?, 'scheduled')
                """)
        var inserted = 0
        for _ in 0..<count {
            for _ in 0..<Self.attempts {
                guard let found = try liveItem(below: lastUser, in: db) else { continue }
                let due = now + random.int64(5...180)
                try insert.execute(arguments: [
                    found.user, found.kind, found.item, Self.daysBefore.randomElement(using: &random) ?? 0,
                    SQLiteTime.string(secondsSinceEpoch: due),
                ])
                inserted += 1
                break
            }
        }
        return inserted
    }

    /// A random active user's live food item (three in four) or document, by the indexes.
    private mutating func liveItem(below lastUser: Int64, in db: Database) throws -> (
        user: Int64, kind: String, item: Int64
    )? {
        guard
            let user = try Int64.fetchOne(
                db, sql: "SELECT id FROM users WHERE id >= ? AND status = 'active' ORDER BY id LIMIT 1",
                arguments: [random.int64(1...lastUser)])
        else { return nil }
        let food = random.chance(0.75)
        let items = try Int64.fetchAll(
            db,
            sql: food
                ? """
                SELECT id FROM food_items WHERE user_id = ? AND deleted_at IS NULL AND consumed_at IS NULL
                ORDER BY id LIMIT 20
                """
                : "SELECT id FROM documents WHERE user_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 20",
            arguments: [user])
        guard let item = items.randomElement(using: &random) else { return nil }
        return (user, food ? "food" : "document", item)
    }
}
