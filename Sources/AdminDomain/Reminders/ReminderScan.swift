import Foundation
import GRDB

/// Reads reminders along the `reminders_scheduled` index, in short read transactions at low
/// priority, each after the last (time, id) read: never a scan of the table.
struct ReminderScan: Sendable {
    let database: PanelDatabase
    var rowsPerRead = 5_000

    struct Result: Sendable {
        /// Due in (after, until], in index order.
        var rows: [ReminderRecord] = []
        /// Those whose `scheduled_for` is not exactly 'YYYY-MM-DD HH:MM:SS' (or does not read),
        /// with it: they sort in the index by that text, not by their time.
        var odd: [(text: String, record: ReminderRecord)] = []
        /// Reminders whose `scheduled_for` sorts before 1970 or after the year 9999 (numbers
        /// stored as text, words): read on a full count only.
        var unreadableOutside: Int?
        var newestAppData: Date?
        /// The largest reminder id: reminders carry no time of writing, so the monitor takes
        /// a larger id than at its last refresh as the backend writing then.
        var lastReminderID: Int64?
    }

    private static let food = Array("food".utf8), document = Array("document".utf8)

    private static let sql = """
        SELECT r.scheduled_for, r.id, r.user_id, r.status, r.sent_at, r.opened_at IS NOT NULL AS opened,
               r.item_kind, r.days_before
        FROM reminders r INDEXED BY reminders_scheduled
        WHERE (r.scheduled_for, r.id) > (?, ?) AND r.scheduled_for <= ?
        ORDER BY r.scheduled_for, r.id LIMIT ?
        """

    func read(after: Int64, until: Int64, full: Bool) async throws -> Result {
        var result = Result()
        let untilText = SQLiteTime.string(secondsSinceEpoch: until)
        // (time, id) after (from, the largest id): the window excludes its start.
        var cursor: (text: String, id: Int64) = (SQLiteTime.string(secondsSinceEpoch: after), Int64.max)
        let limit = rowsPerRead
        while true {
            let (batch, odd, last) = try await database.readAtLowPriority { [cursor] db in
                var rows: [ReminderRecord] = []
                var odd: [(text: String, record: ReminderRecord)] = []
                rows.reserveCapacity(limit)
                var last = cursor
                let read = try db.forEachRawRow(
                    SQL(sql: Self.sql, arguments: [cursor.text, cursor.id, untilText, limit])
                ) { row in
                    if let text = row.text(0), let id = row.integer(1) { last = (text, id) }
                    let record = Self.record(row)
                    if Self.isCanonical(row) { rows.append(record) } else { odd.append((row.text(0) ?? "", record)) }
                }
                return ((rows, read), odd, last)
            }
            result.rows += batch.0
            result.odd += odd
            if batch.1 < limit || (last.text == cursor.text && last.id == cursor.id) { break }
            cursor = last
        }
        let nowText = SQLiteTime.string(secondsSinceEpoch: until + 60)
        let (outside, newest, lastID) = try await database.readAtLowPriority { db in
            let outside =
                full
                ? try Int.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT COUNT(*) FROM reminders INDEXED BY reminders_scheduled
                                WHERE scheduled_for < '1970-01-01')
                               + (SELECT COUNT(*) FROM reminders INDEXED BY reminders_scheduled
                                  WHERE scheduled_for > '9999')
                        """) : nil
            // The newest row not stamped in the future of each table with a time index.
            var newest: Int64?
            for (table, index) in [
                ("activity_events", "activity_events_time"), ("users", "users_created_at"),
                ("push_receipts", "push_receipts_time"),
            ] {
                let text = try String.fetchOne(
                    db,
                    sql: """
                        SELECT created_at FROM \(table) INDEXED BY \(index)
                        WHERE created_at <= ? AND created_at >= '1970-01-01'
                        ORDER BY created_at DESC LIMIT 1
                        """, arguments: [nowText])
                if let seconds = text.flatMap(SQLiteTime.seconds) {
                    newest = max(newest ?? seconds, seconds)
                }
            }
            let lastID = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM reminders")
            return (outside, newest, lastID)
        }
        result.lastReminderID = lastID
        result.unreadableOutside = outside
        result.newestAppData = newest.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        return result
    }

    /// 'YYYY-MM-DD HH:MM:SS' naming a real time: its text orders as its time.
    private static func isCanonical(_ row: RawRow) -> Bool {
        guard let bytes = row.bytes(0), bytes.count == 19, bytes[10] == UInt8(ascii: " ") else { return false }
        return row.seconds(0) != nil
    }

    private static func record(_ row: RawRow) -> ReminderRecord {
        let scheduled = row.seconds(0)
        let status = row.text(3).flatMap(ReminderStatus.init(rawValue:))
        let sentAt = row.seconds(4)
        var timing = ReminderRecord.Timing.none
        var lateness: Int64 = 0
        if status == .sent {
            if let sentAt, let scheduled {
                lateness = sentAt - scheduled
                timing = lateness >= 0 ? .measured : .beforeScheduled
            } else {
                timing = .unreadable
            }
        }
        let kind: ReminderRecord.Kind =
            row.text(6, is: Self.food) ? .food : row.text(6, is: Self.document) ? .document : .other
        let daysBefore = row.integer(7).flatMap { Int32(exactly: $0) } ?? ReminderRecord.notANumber
        return ReminderRecord(
            scheduled: scheduled ?? 0, user: row.integer(2) ?? 0, lateness: lateness, daysBefore: daysBefore,
            status: status,
            timing: timing, opened: row.integer(5) == 1, readable: scheduled != nil, kind: kind)
    }
}
