import AdminDomain
import DemoData
import GRDB

/// The demo's users crossing the triggers of the demo's journeys (`DemoJourneys`), once a
/// minute, so that journeys visibly enter, send and exit on the demo. A journey enters only
/// the users who cross after it began, so the seed alone would feed them a user now and then.
/// Each minute, in the backend's own write transaction, a few rows of the app's tables:
/// - users with a device stop using the app: `last_active_at` set to 30 days before a
///   moment of the coming minute, so they cross the win-back line at that moment;
/// - sign-ups dated two days ago with fewer than 3 items (a device, settings, a `sign_up`
///   event), crossing the first-week line in the coming minute;
/// - premium subscriptions cancelled, their period ending 2 to 3 days on;
/// and, so that the send-time checks have something to stop, some of those moved at least
/// `reverseAfter` ago move back: come back to the app, add their items, renew.
/// Candidates are read by id from a random point, a few rows, never a table scan.
public struct JourneyMover: Sendable {
    /// How many of each move a minute.
    public struct Counts: Sendable, Equatable {
        public var lapsed = 0, signedUp = 0, cancelled = 0, cameBack = 0, addedItems = 0, renewed = 0

        public init(
            lapsed: Int = 0, signedUp: Int = 0, cancelled: Int = 0, cameBack: Int = 0, addedItems: Int = 0,
            renewed: Int = 0
        ) {
            self.lapsed = lapsed
            self.signedUp = signedUp
            self.cancelled = cancelled
            self.cameBack = cameBack
            self.addedItems = addedItems
            self.renewed = renewed
        }
    }

    public static let interval: Int64 = 60
    /// The reverse moves take rows moved at least this long ago, when their entries wait.
    public static let reverseAfter: Int64 = 180
    public static let standard = Counts(lapsed: 5, signedUp: 3, cancelled: 2, cameBack: 2, addedItems: 1, renewed: 1)
    /// Candidates read from one random id on.
    static let span: Int64 = 2_000
    static let remembered = 500
    static let zones = [
        "UTC", "Europe/Lisbon", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo",
        "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "Africa/Lagos",
    ]

    struct Moved: Sendable {
        var at: Int64
        var id: Int64
        /// What was written, so that a row changed since is not moved back.
        var value: String
    }

    public let perMinute: Counts
    private var nextMove: Int64?
    private var random: SeedRandom
    private var lapsed: [Moved] = [], newcomers: [Moved] = [], cancelled: [Moved] = []

    public init(perMinute: Counts = Self.standard, seed: UInt64) {
        self.perMinute = perMinute
        random = SeedRandom(seed: seed, stream: 7)
    }

    /// The moves of this minute in the caller's write transaction, or nil when the last ones
    /// were less than a minute ago. A pause (a suspended laptop) makes no burst.
    @discardableResult
    public mutating func tick(now: Int64, in db: Database) throws -> Counts? {
        if let nextMove, now < nextMove { return nil }
        nextMove = now + Self.interval
        var done = Counts()
        // The reverse moves first: this minute's rows are not among them.
        for _ in 0..<perMinute.cameBack { if try comeBack(now: now, in: db) { done.cameBack += 1 } }
        for _ in 0..<perMinute.addedItems { if try addItems(now: now, in: db) { done.addedItems += 1 } }
        for _ in 0..<perMinute.renewed { if try renew(now: now, in: db) { done.renewed += 1 } }
        for _ in 0..<perMinute.lapsed { if try lapse(now: now, in: db) { done.lapsed += 1 } }
        for index in 0..<perMinute.signedUp {
            try signUp(now: now, index: index, in: db)
            done.signedUp += 1
        }
        for _ in 0..<perMinute.cancelled { if try cancel(now: now, in: db) { done.cancelled += 1 } }
        return done
    }

    // MARK: Crossing

    /// A user still active, with a device, stops: they last used the app 30 days before a
    /// moment of the coming minute.
    private mutating func lapse(now: Int64, in db: Database) throws -> Bool {
        let days = Int64(DemoJourneys.inactiveDays) * 86_400
        guard
            let user = try pick(
                sql: """
                    SELECT u.id FROM users u
                    WHERE u.id >= :from AND u.id < :to AND u.status = 'active' AND u.last_active_at > :recent
                      AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.push_token IS NOT NULL)
                    ORDER BY u.id LIMIT 1
                    """, table: "users",
                extra: ["recent": SQLiteTime.string(secondsSinceEpoch: now - days + 2 * Self.interval)], in: db)
        else { return false }
        let value = SQLiteTime.string(secondsSinceEpoch: now - days + random.int64(1...(Self.interval - 1)))
        try db.execute(sql: "UPDATE users SET last_active_at = ? WHERE id = ?", arguments: [value, user])
        Self.remember(&lapsed, Moved(at: now, id: user, value: value))
        return true
    }

    /// Someone who signed up two days before a moment of the coming minute, with a device
    /// allowed to get pushes and 0 to 2 food items.
    private mutating func signUp(now: Int64, index: Int, in db: Database) throws {
        let created = now - Int64(DemoJourneys.firstDays) * 86_400 + random.int64(1...(Self.interval - 1))
        let createdText = SQLiteTime.string(secondsSinceEpoch: created)
        let seen = SQLiteTime.string(secondsSinceEpoch: created + 600)
        let zone = Self.zones[random.int(0...(Self.zones.count - 1))]
        try db.execute(
            sql: """
                INSERT INTO users (
                  email, password_hash, display_name, plan, status, timezone, locale, created_at, last_active_at)
                VALUES (?, '$argon2id$v=19$m=65536,t=3,p=4$demo$new', 'Newcomer', 'free', 'active', ?, 'en-US', ?, ?)
                """, arguments: ["newcomer.\(now).\(index)@example.com", zone, createdText, seen])
        let user = db.lastInsertedRowID
        try db.execute(sql: "INSERT INTO notification_settings (user_id) VALUES (?)", arguments: [user])
        let ios = random.chance(0.55)
        let apns = ios && random.chance(0.75)
        let (a, b) = (random.next(), random.next())
        let token =
            apns
            ? String(format: "%016llx%016llx%016llx%016llx", a, b, UInt64(bitPattern: now), UInt64(user))
            : "f\(String(a, radix: 36)):APA91b\(String(b, radix: 36))_new\(user)"
        try db.execute(
            sql: """
                INSERT INTO devices (
                  user_id, platform, push_provider, push_token, push_permission, app_version, os_version, created_at,
                  last_seen_at)
                VALUES (?, ?, ?, ?, 'granted', '3.4.0', ?, ?, ?)
                """,
            arguments: [
                user, ios ? "ios" : "android", apns ? "apns" : "fcm", token, ios ? "18.1" : "15", createdText, seen,
            ])
        try db.execute(
            sql: "INSERT INTO activity_events (user_id, kind, platform, created_at) VALUES (?, 'sign_up', ?, ?)",
            arguments: [user, ios ? "ios" : "android", createdText])
        let expiry = String(SQLiteTime.string(secondsSinceEpoch: now + 5 * 86_400).prefix(10))
        for _ in 0..<random.int(0...(DemoJourneys.fewerItems - 1)) {
            try addFood(user: user, expiry: expiry, at: created + 300, in: db)
        }
        Self.remember(&newcomers, Moved(at: now, id: user, value: createdText))
    }

    /// A premium user's renewing subscription is cancelled; its period now ends 2 to 3 days on.
    private mutating func cancel(now: Int64, in db: Database) throws -> Bool {
        guard
            let subscription = try pick(
                sql: """
                    SELECT s.id FROM subscriptions s JOIN users u ON u.id = s.user_id
                    WHERE s.id >= :from AND s.id < :to AND s.status = 'active' AND s.cancelled_at IS NULL
                      AND u.plan = 'premium' AND u.status = 'active'
                    ORDER BY s.id LIMIT 1
                    """, table: "subscriptions", in: db)
        else { return false }
        let days = Int64(DemoJourneys.endingDays) * 86_400
        let end = SQLiteTime.string(secondsSinceEpoch: now + days - random.int64(3_600...(days / 3)))
        try db.execute(
            sql: "UPDATE subscriptions SET status = 'cancelled', cancelled_at = ?, current_period_end = ? WHERE id = ?",
            arguments: [SQLiteTime.string(secondsSinceEpoch: now), end, subscription])
        Self.remember(&cancelled, Moved(at: now, id: subscription, value: end))
        return true
    }

    // MARK: Moving back

    /// A lapsed user opens the app again: a `login` event and `last_active_at` now.
    private mutating func comeBack(now: Int64, in db: Database) throws -> Bool {
        guard let moved = Self.take(from: &lapsed, now: now, random: &random) else { return false }
        let stamp = SQLiteTime.string(secondsSinceEpoch: now)
        try db.execute(
            sql: "UPDATE users SET last_active_at = ? WHERE id = ? AND last_active_at = ?",
            arguments: [stamp, moved.id, moved.value])
        guard db.changesCount > 0 else { return false }
        try db.execute(
            sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
            arguments: [moved.id, stamp])
        return true
    }

    /// A newcomer adds the items they lacked: three food items, each an `item_added` event.
    private mutating func addItems(now: Int64, in db: Database) throws -> Bool {
        guard let moved = Self.take(from: &newcomers, now: now, random: &random) else { return false }
        let expiry = String(SQLiteTime.string(secondsSinceEpoch: now + 7 * 86_400).prefix(10))
        for _ in 0..<DemoJourneys.fewerItems { try addFood(user: moved.id, expiry: expiry, at: now, in: db) }
        try db.execute(
            sql: "UPDATE users SET last_active_at = ? WHERE id = ?",
            arguments: [SQLiteTime.string(secondsSinceEpoch: now), moved.id])
        return true
    }

    /// A cancelled subscription is renewed after all: active again, a period further on.
    private mutating func renew(now: Int64, in db: Database) throws -> Bool {
        guard let moved = Self.take(from: &cancelled, now: now, random: &random),
            let end = SQLiteTime.backendSeconds(moved.value)
        else { return false }
        try db.execute(
            sql: """
                UPDATE subscriptions SET status = 'active', cancelled_at = NULL, current_period_end = ?
                WHERE id = ? AND status = 'cancelled' AND current_period_end = ?
                """, arguments: [SQLiteTime.string(secondsSinceEpoch: end + 30 * 86_400), moved.id, moved.value])
        return db.changesCount > 0
    }

    // MARK: Helpers

    private func addFood(user: Int64, expiry: String, at: Int64, in db: Database) throws {
        let stamp = SQLiteTime.string(secondsSinceEpoch: at)
        try db.execute(
            sql: """
                INSERT INTO food_items (
                  user_id, name, category, storage, quantity, expiry_date, source, created_at, updated_at)
                VALUES (?, 'Milk', 'Dairy', 'Refrigerator', '1 liter', ?, 'barcode', ?, ?)
                """, arguments: [user, expiry, stamp, stamp])
        try db.execute(
            sql: "INSERT INTO activity_events (user_id, kind, detail, created_at) VALUES (?, 'item_added', ?, ?)",
            arguments: [user, "{\"food_item_id\":\(db.lastInsertedRowID)}", stamp])
    }

    /// The first row `sql` finds in `span` ids of `table` from a random one (`:from`, `:to`).
    private mutating func pick(sql: String, table: String, extra: [String: String] = [:], in db: Database) throws
        -> Int64?
    {
        guard let last = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM \(table)"), last > 0 else { return nil }
        for attempt in 0..<3 {
            // The last try from the first id: a random point near the end may have none after it.
            let from = attempt == 2 ? 1 : random.int64(1...last)
            var arguments: [String: (any DatabaseValueConvertible)?] = ["from": from, "to": from + Self.span]
            for (key, value) in extra { arguments[key] = value }
            if let id = try Int64.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) { return id }
        }
        return nil
    }

    /// The oldest remembered row moved at least `reverseAfter` ago, half the time the
    /// newest such: some move back soon after they entered, some later.
    private static func take(from list: inout [Moved], now: Int64, random: inout SeedRandom) -> Moved? {
        let ready = list.indices.filter { now - list[$0].at >= reverseAfter }
        guard let first = ready.first, let last = ready.last else { return nil }
        return list.remove(at: random.chance(0.5) ? first : last)
    }

    private static func remember(_ list: inout [Moved], _ moved: Moved) {
        list.append(moved)
        if list.count > remembered { list.removeFirst(list.count - remembered) }
    }
}
