import Foundation
import GRDB

/// The users who crossed a trigger in one evaluation's window, read along the users' time
/// indexes (`users_last_active_at`, `users_created_at`) in pages after a (time, id) cursor:
/// an evaluation after a long pause reads on page by page, never the table. The window is
/// (previous − lag, now − lag] of the stored text, so nothing stamped after now − lag (the
/// future included) is in it. Only a time exactly as the backend writes it ('YYYY-MM-DD
/// HH:MM:SS', naming a real time) enters anyone: other text sorts in the index by its
/// characters, not its time, and the cursor passes it by.
public enum TriggerScan {
    public struct Cursor: Sendable, Equatable {
        public let time: String
        public let id: Int64
    }

    public struct Page: Sendable, Equatable {
        public var crossings: [TriggerCrossing] = []
        /// Where the next page starts; nil when the window is read to its end.
        public var next: Cursor?
    }

    /// One page of the crossings of `trigger` between the evaluations at `previous` and `now`
    /// (seconds since 1970), reading at most `limit` index entries.
    public static func page(
        _ trigger: JourneyTrigger, previous: Int64, now: Int64, after cursor: Cursor? = nil,
        limit: Int = 1_000, in db: Database
    ) throws -> Page {
        let from = SQLiteTime.string(secondsSinceEpoch: previous - trigger.lag)
        let until = SQLiteTime.string(secondsSinceEpoch: now - trigger.lag)
        let start = cursor ?? Cursor(time: from, id: .min)
        let (column, index) =
            switch trigger {
            case .inactiveDays: ("last_active_at", "users_last_active_at")
            // Subscriptions have no index on their end: `SubscriptionPass` reads them.
            case .firstDays, .subscriptionEnding: ("created_at", "users_created_at")
            }
        if case .subscriptionEnding = trigger { return Page() }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, \(column) AS crossed FROM users INDEXED BY \(index)
                WHERE \(column) > :from AND \(column) <= :until AND (\(column), id) > (:time, :id)
                ORDER BY \(column), id LIMIT :limit
                """, arguments: ["from": from, "until": until, "time": start.time, "id": start.id, "limit": limit])
        var page = Page()
        for row in rows {
            let id: Int64 = row["id"]
            // Text by the column's affinity, read without converting (a value GRDB cannot
            // convert would stop the process); anything else cannot sort inside the range.
            guard case .string(let crossed) = (row["crossed"] as DatabaseValue).storage else { continue }
            page.next = Cursor(time: crossed, id: id)
            guard SQLiteTime.backendSeconds(crossed) != nil else { continue }
            if case .firstDays(_, let fewer) = trigger, try Self.liveItems(of: id, atMost: fewer, in: db) >= fewer {
                continue
            }
            page.crossings.append(TriggerCrossing(userID: id, occurrence: crossed))
        }
        if rows.count < limit { page.next = nil }
        return page
    }

    /// Food items and documents not deleted, counted by the users' indexes up to `limit`: a
    /// user with 20,000 items costs no more than one with `limit`.
    static func liveItems(of user: Int64, atMost limit: Int, in db: Database) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM food_items INDEXED BY food_items_user
                                                  WHERE user_id = :user AND deleted_at IS NULL LIMIT :limit))
                           + (SELECT COUNT(*) FROM (SELECT 1 FROM documents INDEXED BY documents_user
                                                    WHERE user_id = :user AND deleted_at IS NULL LIMIT :limit))
                    """), arguments: ["user": user, "limit": limit]) ?? 0
    }
}
