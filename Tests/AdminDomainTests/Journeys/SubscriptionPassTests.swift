import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, `subscription_ending`: one pass over `subscriptions` in pages of any size finds
/// exactly the rows SQL written here from the definition finds, with ends a second either
/// side of each boundary, every status, a free user and hostile values.
@Suite(.timeLimit(.minutes(20))) struct SubscriptionPassTests {
    static let now = Int64(TemporaryDatabase.seedNow.timeIntervalSince1970)

    @Test func onePassFindsTheSubscriptionsThatEndSoonAndWillNotRenew() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let queue = try DatabaseQueue(path: temp.path)
        let text = TriggerScanTests.text
        let now = Self.now
        let days: Int64 = 3
        let limitEnd = now + days * 86_400
        let (premium, free) = try await queue.write { db -> (Int64, Int64) in
            try db.execute(
                sql:
                    "INSERT INTO users (email, password_hash, plan, created_at) "
                    + "VALUES ('sub-p@odd.test', 'x', 'premium', '2026-01-01 00:00:00')"
            )
            let premium = db.lastInsertedRowID
            try db.execute(
                sql:
                    "INSERT INTO users (email, password_hash, plan, created_at) "
                    + "VALUES ('sub-f@odd.test', 'x', 'free', '2026-01-01 00:00:00')"
            )
            return (premium, db.lastInsertedRowID)
        }
        // (user, status, end, cancelled_at)
        let rows:
            [(any DatabaseValueConvertible & Sendable, String, any DatabaseValueConvertible & Sendable, String?)] = [
                (premium, "cancelled", text(limitEnd), nil),  // ends at the window's end: in
                (premium, "cancelled", text(limitEnd + 1), nil),  // a second later: out
                (premium, "cancelled", text(now), nil),  // ended now: not in force
                (premium, "past_due", text(now + 1), nil),  // in
                (premium, "active", text(now + 3_600), "2026-11-10 00:00:00"),  // turned off renewing: in
                (premium, "active", text(now + 3_600), nil),  // renews: out
                (premium, "expired", text(now + 3_600), "2026-11-10 00:00:00"),  // not in force
                (premium, "refunded", text(now + 3_600), nil),
                (free, "cancelled", text(now + 3_600), nil),  // a free user: out
                // Not the backend's form.
                (premium, "cancelled", text(now + 3_600).replacingOccurrences(of: " ", with: "T"), nil),
                (premium, "cancelled", String(text(now + 3_600).prefix(17)) + "99", nil),  // no such second
                (premium, "cancelled", 1_795_003_600, nil),  // a number
                ("abc", "cancelled", text(now + 3_600), nil),  // a user id that is text
            ]
        let foreignKeys = try await queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } ?? false
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            for row in rows {
                try db.execute(
                    sql: """
                        INSERT INTO subscriptions
                          (user_id, plan_type, status, store, price_cents, currency, started_at, current_period_end,
                           cancelled_at)
                        VALUES (?, 'monthly', ?, 'web', 499, 'EUR', '2026-10-01 00:00:00', ?, ?)
                        """, arguments: [row.0, row.1, row.2, row.3])
            }
            if foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
        let expected = try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.user_id, s.current_period_end AS t FROM subscriptions s JOIN users u ON u.id = s.user_id
                    WHERE typeof(s.user_id) = 'integer' AND u.plan = 'premium'
                      AND typeof(s.current_period_end) = 'text'
                      AND s.current_period_end GLOB
                        '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]'
                      AND strftime('%Y-%m-%d %H:%M:%S', s.current_period_end) = s.current_period_end
                      AND CAST(strftime('%s', s.current_period_end) AS INTEGER) > \(now)
                      AND CAST(strftime('%s', s.current_period_end) AS INTEGER) <= \(limitEnd)
                      AND (s.status IN ('cancelled', 'past_due') OR (s.status = 'active'
                        AND s.cancelled_at IS NOT NULL))
                    ORDER BY s.id
                    """
            ).map { TriggerCrossing(userID: $0["user_id"], occurrence: $0["t"]) }
        }
        #expect(
            expected.filter { $0.userID == premium }.count == 3,
            "the end, now + 1 s and the one turned off renewing: \(expected)")
        for limit in [1, 4, 10_000] {
            let found = try await queue.read { db in
                var crossings: [TriggerCrossing] = []
                var after: Int64?
                repeat {
                    let page = try SubscriptionPass.page(days: Int(days), now: now, after: after, limit: limit, in: db)
                    crossings += page.crossings
                    after = page.next
                } while after != nil
                return crossings
            }
            #expect(found == expected, "pages of \(limit)")
        }
    }
}
