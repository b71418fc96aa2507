import AdminDomain
import DemoData
import Foundation
import GRDB

/// The app's backend sending expiry reminders, played on the demo database. It reads the
/// rows that fell due along `reminders_scheduled` from a cursor (time, id), never further back
/// than `window`: a row stamped long ago, or a cursor left behind, cannot make it rescan the
/// table. A row seen falling due is sent as the backend would: most 1 to 30 s after its time,
/// some 2 to 20 minutes late, a few failed; a quarter of those sent are opened a few seconds
/// to minutes later, each open also the user's `push_opened` activity event. A row first read
/// more than `promptness` after its time fell due while nothing was sending (the demo was not
/// running): it is settled when read, `readLimit` rows a tick at most, with its true lateness.
/// A time that does not read as the backend's 'YYYY-MM-DD HH:MM:SS' is left as it is.
public struct ReminderSender: Sendable {
    public static let window: Int64 = 2 * 3_600
    public static let promptness: Int64 = 60
    public static let readLimit = 200
    /// Sends and opens written a tick at most, so that a burst (the seed's 09:00) stays a
    /// few milliseconds of writing.
    static let writeLimit = 500
    static let failedShare = 0.02, lateShare = 0.04, openedShare = 0.25

    public struct Cursor: Sendable, Equatable {
        public var time: String
        public var id: Int64
    }

    struct Planned: Sendable {
        var id: Int64
        var at: Int64
        var failed: Bool
    }

    public private(set) var cursor: Cursor?
    /// Rows the last tick read from the index: a few, not the table.
    public private(set) var rowsRead = 0
    private var sends: [Planned] = []
    private var opens: [(id: Int64, at: Int64)] = []
    private var random: SeedRandom

    public init(seed: UInt64) {
        random = SeedRandom(seed: seed, stream: 0)
    }

    /// Reads what fell due since the last tick, then writes the sends and opens whose time has
    /// come. Runs inside the caller's write transaction.
    public mutating func tick(now: Int64, in db: Database) throws {
        try readDue(now: now, in: db)
        try writeSends(now: now, in: db)
        try writeOpens(now: now, in: db)
    }

    private mutating func readDue(now: Int64, in db: Database) throws {
        let oldest = SQLiteTime.string(secondsSinceEpoch: now - Self.window)
        // The cursor counts only inside the window: left further back, the window's start wins.
        let from =
            cursor.map { $0.time >= oldest ? $0 : Cursor(time: oldest, id: Int64.min) }
            ?? Cursor(time: oldest, id: Int64.min)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, scheduled_for, status FROM reminders
                WHERE scheduled_for >= ? AND scheduled_for <= ? AND (scheduled_for > ? OR id > ?)
                ORDER BY scheduled_for, id LIMIT ?
                """,
            arguments: [from.time, SQLiteTime.string(secondsSinceEpoch: now), from.time, from.id, Self.readLimit])
        rowsRead = rows.count
        for row in rows {
            let id: Int64 = row["id"]
            // Text by the column's affinity (read without converting: GRDB stops the process on a
            // value that does not convert); anything else could not sort inside the range.
            guard case .string(let time) = (row["scheduled_for"] as DatabaseValue).storage else { continue }
            cursor = Cursor(time: time, id: id)
            guard case .string("scheduled") = (row["status"] as DatabaseValue).storage,
                let scheduled = SQLiteTime.backendSeconds(time), scheduled <= now
            else { continue }
            sends.append(plan(id: id, scheduled: scheduled, now: now))
        }
    }

    private mutating func plan(id: Int64, scheduled: Int64, now: Int64) -> Planned {
        if now - scheduled > Self.promptness {
            return Planned(id: id, at: now, failed: random.chance(Self.failedShare))
        }
        if random.chance(Self.failedShare) {
            return Planned(id: id, at: scheduled + random.int64(1...30), failed: true)
        }
        if random.chance(Self.lateShare) {
            return Planned(id: id, at: scheduled + random.int64(120...1_200), failed: false)
        }
        return Planned(id: id, at: scheduled + random.int64(1...30), failed: false)
    }

    private mutating func writeSends(now: Int64, in db: Database) throws {
        let ready = Self.takeDue(&sends, now: now, at: \.at, id: \.id)
        guard !ready.isEmpty else { return }
        // Only a row still waiting: one the app cancelled meanwhile stays cancelled.
        let sent = try db.makeStatement(
            sql: "UPDATE reminders SET status = 'sent', sent_at = ? WHERE id = ? AND status = 'scheduled'")
        let failed = try db.makeStatement(
            sql: "UPDATE reminders SET status = 'failed' WHERE id = ? AND status = 'scheduled'")
        for send in ready {
            if send.failed {
                try failed.execute(arguments: [send.id])
                continue
            }
            try sent.execute(arguments: [SQLiteTime.string(secondsSinceEpoch: send.at), send.id])
            if db.changesCount > 0, random.chance(Self.openedShare) {
                opens.append((send.id, send.at + random.int64(3...300)))
            }
        }
    }

    private mutating func writeOpens(now: Int64, in db: Database) throws {
        let ready = Self.takeDue(&opens, now: now, at: { $0.at }, id: { $0.id })
        guard !ready.isEmpty else { return }
        let opened = try db.makeStatement(
            sql: "UPDATE reminders SET opened_at = ? WHERE id = ? AND status = 'sent' AND opened_at IS NULL")
        // The app reports the tap as its users' activity too: without it the demo's app data
        // would stop at the seed's time and the panel would say "no app data since" an hour on.
        let event = try db.makeStatement(
            sql: """
                INSERT INTO activity_events (user_id, kind, detail, platform, created_at)
                SELECT r.user_id, 'push_opened', json_object('reminder_id', r.id),
                       (SELECT d.platform FROM devices d WHERE d.user_id = r.user_id
                        ORDER BY d.last_seen_at DESC, d.id LIMIT 1), ?
                FROM reminders r WHERE r.id = ?
                """)
        for open in ready {
            let at = SQLiteTime.string(secondsSinceEpoch: open.at)
            try opened.execute(arguments: [at, open.id])
            if db.changesCount > 0 { try event.execute(arguments: [at, open.id]) }
        }
    }

    /// Up to `writeLimit` of `pending` due by `now`, earliest first, taken out of it: a tick's writes
    /// stay one small transaction, and the rest wait for the next tick.
    private static func takeDue<Item>(
        _ pending: inout [Item], now: Int64, at: (Item) -> Int64, id: (Item) -> Int64
    ) -> [Item] {
        let ready = Array(pending.filter { at($0) <= now }.sorted { at($0) < at($1) }.prefix(writeLimit))
        let taken = Set(ready.map(id))
        pending.removeAll { taken.contains(id($0)) }
        return ready
    }
}
