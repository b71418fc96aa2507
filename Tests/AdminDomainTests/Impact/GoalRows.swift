import AdminDomain
import Foundation
import GRDB

/// Goal events as the backend might write them around a window (start, end]: every kind, at
/// one second either side of each end, subscriptions starting there too, and hostile rows
/// (times that are not times, text that says NULL, kinds the app does not write, a time or a
/// kind stored as a blob rather than text).
enum GoalRows {
    struct Row: Sendable {
        /// A `subscriptions` row's start rather than an `activity_events` row.
        let subscription: Bool
        let kind: DatabaseValue
        let time: DatabaseValue
    }

    static let kinds: [DatabaseValue] =
        ["item_added", "document_added", "upgraded", "login", "push_opened", "ITEM_ADDED", "upgraded ", "", "NULL"]
        .map(\.databaseValue) + [Data("item_added".utf8).databaseValue, Data("upgraded".utf8).databaseValue]

    /// Not a time in the backend's format, whatever SQLite's `datetime` might make of some.
    static let hostileTimes: [DatabaseValue] = [
        "not a time".databaseValue, "NULL".databaseValue, "".databaseValue, "2026-11-19 25:00:00".databaseValue,
        "2026-13-01 10:00:00".databaseValue, "2026-11-19 12:00".databaseValue, " 2026-11-19 12:00:00".databaseValue,
        "2026-11-19 12:00:00.000".databaseValue, 1_795_100_000.databaseValue,
        Data("2026-11-19 12:00:00".utf8).databaseValue,
    ]

    /// Every combination, in a fixed order: the times at the window's edges and inside it,
    /// each with every kind and as a subscription's start; then the hostile times.
    static func all(start: Date, days: Int) -> [Row] {
        let end = start.addingTimeInterval(TimeInterval(days * 86_400))
        let edges = [
            start.addingTimeInterval(-1), start, start.addingTimeInterval(1), start.addingTimeInterval(86_400),
            end, end.addingTimeInterval(1),
        ].map { SQLiteTime.string($0).databaseValue }
        var rows: [Row] = []
        for time in edges + hostileTimes {
            for kind in kinds { rows.append(Row(subscription: false, kind: kind, time: time)) }
            rows.append(Row(subscription: true, kind: "".databaseValue, time: time))
        }
        return rows
    }

    /// One row per user in `users`, cycling through `all` from `offset`; every seventh user gets
    /// a second row as well.
    static func insert(_ rows: [Row], for users: [Int64], offset: Int, in db: Database) throws {
        func write(_ row: Row, user: Int64) throws {
            if row.subscription {
                try db.execute(
                    sql: """
                        INSERT INTO subscriptions
                          (user_id, plan_type, status, store, price_cents, currency, started_at, current_period_end)
                        VALUES (?, 'monthly', 'active', 'app_store', 499, 'EUR', ?, '2027-01-01 00:00:00')
                        """, arguments: [user, row.time])
            } else {
                try db.execute(
                    sql:
                        "INSERT INTO activity_events (user_id, kind, detail, platform, created_at) "
                        + "VALUES (?, ?, NULL, NULL, ?)",
                    arguments: [user, row.kind, row.time])
            }
        }
        for (index, user) in users.enumerated() {
            try write(rows[(offset + index) % rows.count], user: user)
            if index % 7 == 0 { try write(rows[(offset + index * 5 + 3) % rows.count], user: user) }
        }
    }

    /// Converted members per (arm, platform), by the definitions: a goal event whose time is
    /// text, a valid 'YYYY-MM-DD HH:MM:SS', with start < time <= end; `any_activity` any event,
    /// `item_added` the kinds item_added and document_added, `upgraded` the kind upgraded or a
    /// subscription started in the window.
    static func expected(campaign: Int64, goal: CampaignGoal, start: Date, days: Int, in db: Database) throws
        -> [String: [String: Int]]
    {
        let kindCondition =
            switch goal {
            case .anyActivity: "1"
            case .itemAdded: "e.kind IN ('item_added', 'document_added')"
            case .upgraded: "e.kind = 'upgraded'"
            }
        let subscriptions =
            goal == .upgraded
            ? """
            OR EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = m.user_id
                       AND typeof(s.started_at) = 'text' AND datetime(s.started_at) = s.started_at
                       AND s.started_at > :start AND s.started_at <= :end)
            """ : ""
        var result: [String: [String: Int]] = [:]
        for row in try GRDB.Row.fetchAll(
            db,
            sql: """
                SELECT m.arm, m.platform, COUNT(*) FROM panel_campaign_members m
                WHERE m.campaign_id = :campaign AND (
                  EXISTS (SELECT 1 FROM activity_events e WHERE e.user_id = m.user_id
                          AND typeof(e.created_at) = 'text' AND datetime(e.created_at) = e.created_at
                          AND e.created_at > :start AND e.created_at <= :end AND \(kindCondition))
                  \(subscriptions))
                GROUP BY m.arm, m.platform
                """,
            arguments: [
                "campaign": campaign, "start": SQLiteTime.string(start),
                "end": SQLiteTime.string(start.addingTimeInterval(TimeInterval(days * 86_400))),
            ])
        {
            result[row[0], default: [:]][row[1]] = row[2]
        }
        return result
    }
}
