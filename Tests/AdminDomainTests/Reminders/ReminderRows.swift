import AdminDomain
import Foundation
import GRDB

/// Reminders of every kind and fate around `now`, hostile ones included, added to a seeded
/// database: the rows the health figures are checked on.
enum ReminderRows {
    /// A small deterministic generator: the same rows every run.
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func text(_ seconds: Int64) -> String { SQLiteTime.string(secondsSinceEpoch: seconds) }

    /// `recentOnly`: all within the last day, and no hostile ones (a refresh's new rows).
    static func insert(into db: Database, now: Int64, count: Int = 600, seed: UInt64 = 11, recentOnly: Bool = false)
        throws
    {
        var steps = Steps(state: seed)
        let users = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO reminders
                  (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at, opened_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        // Spread over the last 31 days, weighted to the last day and hour so each range differs.
        let spans: [Int64] = recentOnly ? [3_600, 86_400] : [3_600, 86_400, 7 * 86_400, 31 * 86_400, 2 * 3_600]
        for index in 0..<count {
            let user = Int64(1 + steps.next(Int(users)))
            let kind = steps.next(3) == 0 ? "document" : "food"
            let daysBefore: any DatabaseValueConvertible =
                steps.next(40) == 0 ? "seven" : [30, 15, 7, 1, 0][steps.next(5)]
            let scheduled = now - Int64(steps.next(Int(spans[index % spans.count])))
            let roll = steps.next(100)
            var status = "sent"
            var sentAt: DatabaseValueConvertible? = nil
            var openedAt: DatabaseValueConvertible? = nil
            switch roll {
            case 0..<8: status = "failed"
            case 8..<14: status = "cancelled"
            case 14..<26: status = "scheduled"
            default:
                // Mostly within a minute, some minutes or hours late, a few days late.
                let late: Int64 =
                    switch steps.next(10) {
                    case 0..<6: Int64(steps.next(61))
                    case 6..<8: Int64(61 + steps.next(900))
                    case 8: Int64(3_600 + steps.next(20_000))
                    default: Int64(steps.next(4_000))
                    }
                sentAt = text(scheduled + late)
                if steps.next(3) == 0 { openedAt = text(scheduled + late + Int64(steps.next(3_000))) }
            }
            try insert.execute(arguments: [
                user, kind, Int64(1 + steps.next(50)), daysBefore, text(scheduled), status, sentAt, openedAt,
            ])
        }
        if recentOnly { return }
        // The hostile ones, a few of each.
        let hostile:
            [(
                scheduled: DatabaseValueConvertible, status: String, sent: DatabaseValueConvertible?,
                opened: DatabaseValueConvertible?
            )] = [
                (text(now - 600), "sent", text(now - 660), nil),  // sent before scheduled
                (text(now - 7_200), "sent", text(now - 7_300), text(now - 7_000)),
                (text(now - 900), "sent", nil, nil),  // sent, no sent_at
                (text(now - 90_000), "sent", "soon", nil),  // sent_at text that is no time
                (text(now - 1_000), "sent", 12_345, "yes"),  // sent_at a number
                (text(now - 400_000), "sent", "2026-13-45 10:00:00", nil),  // an impossible day
                (12_345, "sent", text(now), nil),  // scheduled_for a number
                ("tomorrow", "scheduled", nil, nil),  // a word
                ("", "scheduled", nil, nil),
                // No time, in the window's text.
                (text(now - 500).replacingOccurrences(of: ":", with: "h"), "scheduled", nil, nil),
                (text(now + 600), "scheduled", nil, nil),  // not due yet
                (text(now + 86_400 * 3), "sent", text(now), nil),  // in the future, sent already
                (text(now - 86_400 * 45), "scheduled", nil, nil),  // older than every range
                (text(now - 120), "scheduled", nil, nil),  // due, not yet overdue
                (text(now - 60), "scheduled", nil, nil),  // may still be sent on time
                (text(now - 61), "scheduled", nil, nil),  // no longer can be
                (text(now - 301), "scheduled", nil, nil),  // overdue by a second
            ]
        for row in hostile {
            try insert.execute(arguments: [
                Int64(1 + steps.next(Int(users))), "food", 999_999, 7, row.scheduled, row.status, row.sent, row.opened,
            ])
        }
        // A deleted item's reminder counts like any other.
        try db.execute(
            sql:
                "UPDATE food_items SET deleted_at = ? WHERE id IN (SELECT item_id FROM reminders "
                + "WHERE item_kind = 'food' LIMIT 3)",
            arguments: [text(now - 60)])
    }
}
