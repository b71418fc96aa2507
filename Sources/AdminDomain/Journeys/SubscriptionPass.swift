import Foundation
import GRDB

/// The `subscription_ending` trigger. `subscriptions` has no index on `current_period_end`
/// (and the panel creates none on the app's tables), and a row turns non-renewing in place
/// (`status`, `cancelled_at`), which no time range would show. So each evaluation reads the
/// next `limit` rows by id from where the last stopped, wrapping round: a full pass every
/// (rows / limit) evaluations, each row's state read as it is now. An entry is unique per
/// occurrence (the period's end), so a row seen again on the next pass enters nobody twice.
public enum SubscriptionPass {
    public struct Page: Sendable, Equatable {
        public var crossings: [TriggerCrossing] = []
        /// The id to read after next; nil when the pass reached the end and starts again.
        public var next: Int64?
    }

    /// Rows with id > `after` (nil: from the first), up to `limit`, that end within `days` of
    /// `now` (seconds since 1970), are still in force, will not renew (status 'cancelled' or
    /// 'past_due', or `cancelled_at` set), and whose user's plan is premium. Only an end
    /// written as the backend writes it, 'YYYY-MM-DD HH:MM:SS', and a whole-number user id
    /// enter anyone.
    public static func page(days: Int, now: Int64, after: Int64?, limit: Int = 10_000, in db: Database) throws -> Page {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT s.id, s.user_id, s.current_period_end AS period_end, s.status,
                       s.cancelled_at IS NOT NULL AS cancelled,
                       typeof(s.user_id) = 'integer' AS whole_user,
                       u.plan
                FROM subscriptions s LEFT JOIN users u ON u.id = s.user_id
                WHERE s.id > :after ORDER BY s.id LIMIT :limit
                """, arguments: ["after": after ?? .min, "limit": limit])
        var page = Page()
        let from = SQLiteTime.string(secondsSinceEpoch: now)
        let until = SQLiteTime.string(secondsSinceEpoch: now + Int64(days) * 86_400)
        for row in rows {
            page.next = row["id"]
            guard row["whole_user"] == true, case .string("premium") = (row["plan"] as DatabaseValue).storage,
                case .string(let end) = (row["period_end"] as DatabaseValue).storage,
                SQLiteTime.backendSeconds(end) != nil,
                end > from, end <= until
            else { continue }
            let status = (row["status"] as DatabaseValue).storage
            guard
                status == .string("cancelled") || status == .string("past_due")
                    || (status == .string("active") && row["cancelled"] == true)
            else { continue }
            page.crossings.append(TriggerCrossing(userID: row["user_id"], occurrence: end))
        }
        if rows.count < limit { page.next = nil }
        return page
    }
}
