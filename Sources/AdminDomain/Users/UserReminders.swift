import Foundation
import GRDB

/// All of one user's reminders, latest time first, by status and item, paged by number
/// ("page 3 of 40"): one user's reminders are counted and walked through the
/// (user_id, scheduled_for) index, never the whole table.
public struct UserReminders: Sendable {
    /// A reminder's status as support asks about it: `scheduled` is still to come (or due
    /// under 5 minutes ago), `overdue` still scheduled more than 5 minutes after its time.
    /// Every reminder is in exactly one.
    public enum Status: String, CaseIterable, Sendable {
        case scheduled, overdue, sent, failed, cancelled
    }

    public struct Filter: Sendable, Equatable {
        public var status: Status?
        public var kind: ItemKind?
        /// One item of `kind`.
        public var itemID: Int64?

        public init(status: Status? = nil, kind: ItemKind? = nil, itemID: Int64? = nil) {
            self.status = status
            self.kind = kind
            self.itemID = itemID
        }
    }

    public struct Reminder: Sendable, Equatable {
        public let id: Int64
        public let itemKind: Stored<ItemKind>
        public let itemID: Int64
        /// nil when the item is not one of this user's (purged, or never was).
        public let itemName: String?
        public let itemDeleted: Bool
        /// Where the item stands in the profile's list of its kind (nearness to the user's
        /// today, as `UserItems` orders it), so a link can open the page that begins with it.
        public let itemNearness: Int64?
        /// A food item eaten or thrown away: listed only among the consumed ones.
        public let itemConsumed: Bool
        /// nil when what is stored is not a whole number.
        public let daysBefore: Int?
        public let scheduledFor: String
        public let status: Stored<ReminderStatus>
        public let sentAt: String?
        public let openedAt: String?
        public let overdue: Bool

        /// Seconds from its time to its sending; nil when either does not read. Negative:
        /// sent before its time (a row to look into, never counted as on time).
        public var lateness: Int64? {
            guard let sentAt, let sent = UserReminders.seconds(sentAt), let due = UserReminders.seconds(scheduledFor)
            else { return nil }
            return sent - due
        }
    }

    public struct Page: Sendable {
        /// Whose reminders: their email and timezone (as stored) head the page.
        public let email: String
        public let timezone: String
        public let reminders: [Reminder]
        /// Every reminder of the user, by status.
        public let summary: UserProfile.ReminderCounts
        /// How many the filter matches, and the pages they fill (at least 1).
        public let matching: Int
        public let number: Int
        public var pageCount: Int { max(1, (matching + UserReminders.pageSize - 1) / UserReminders.pageSize) }
    }

    public static let pageSize = 50
    /// Still scheduled more than 5 minutes after a time that reads: `:overdueBefore`, `:pattern` bound.
    static let overdueSQL = "(status = 'scheduled' AND scheduled_for GLOB :pattern AND scheduled_for < :overdueBefore)"

    static func overdueBefore(_ now: Date) -> String {
        SQLiteTime.string(now.addingTimeInterval(-Double(Reachability.overdueAfterSeconds)))
    }

    /// 'YYYY-MM-DD HH:MM:SS' ('T' for the space too) as seconds since the epoch; nil for
    /// anything else, a day alone included.
    public static func seconds(_ text: String) -> Int64? {
        text.utf8.count == 19 ? SQLiteTime.seconds(text) : nil
    }

    /// A stored UTC time as the wall-clock time in `zone`; nil when it does not read.
    public static func local(_ text: String, in zone: TimeZone) -> String? {
        guard let seconds = seconds(text) else { return nil }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return SQLiteTime.string(secondsSinceEpoch: seconds + Int64(offset))
    }

    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    /// Page `number` (from 1) of what the filter matches; nil when there is no such user. A
    /// number past the last page still answers (with no rows): the caller says so.
    public func page(userID: Int64, filter: Filter, number: Int, now: Date = Date()) async throws -> Page? {
        let conditions = Self.conditions(userID: userID, filter: filter, now: now)
        let countSQL = Self.countSQL(conditions)
        let rowsSQL = Self.rowsSQL(conditions, offset: max(0, number - 1) * Self.pageSize)
        let summaryArguments: StatementArguments = [
            "user": userID, "overdueBefore": Self.overdueBefore(now), "pattern": Reachability.timePattern,
        ]
        return try await database.read { db -> Page? in
            guard
                let user = try Row.fetchOne(
                    db, sql: "SELECT \(wholeText("email", as: "email")), timezone FROM users WHERE id = ?",
                    arguments: [userID])
            else { return nil }
            let summary = try Self.summary(db, summaryArguments)
            let matching = try Int.fetchOne(db, SQLRequest(literal: countSQL)) ?? 0
            let timezone: String = try user.decode(forColumn: "timezone")
            let today = SQL(sql: "", arguments: ["today": UserCalendar(timezone: timezone, now: now).todayString])
            let reminders = try Row.fetchAll(db, SQLRequest(literal: rowsSQL + today)).map { row in
                let found: Int64? = row["item_found"]
                return Reminder(
                    id: try row.decode(forColumn: "id"), itemKind: try row.decode(forColumn: "item_kind"),
                    itemID: try row.decode(forColumn: "item_id"),
                    itemName: found == nil ? nil : try row.wholeText("item_name"),
                    itemDeleted: !(row["item_deleted_at"] as DatabaseValue).isNull,
                    itemNearness: try row.decode(forColumn: "item_nearness"),
                    itemConsumed: !(row["item_consumed_at"] as DatabaseValue).isNull,
                    daysBefore: try row.decode(forColumn: "days_before"),
                    scheduledFor: try row.wholeText(required: "scheduled_for"),
                    status: try row.decode(forColumn: "status"), sentAt: try row.wholeText("sent_at"),
                    openedAt: try row.wholeText("opened_at"),
                    overdue: (try row.decode(forColumn: "overdue") as Bool?) ?? false)
            }
            return Page(
                email: try user.wholeText(required: "email"), timezone: timezone, reminders: reminders,
                summary: summary, matching: matching, number: number)
        }
    }

    /// The filter as SQL over one user's reminders, and the values it binds.
    static func conditions(userID: Int64, filter: Filter, now: Date) -> SQL {
        var conditions = ["user_id = :user"]
        var arguments: [String: DatabaseValue] = ["user": userID.databaseValue]
        let overdue: [String: DatabaseValue] = [
            "overdueBefore": overdueBefore(now).databaseValue, "pattern": Reachability.timePattern.databaseValue,
        ]
        switch filter.status {
        case nil: break
        case .scheduled?: conditions.append("status = 'scheduled' AND NOT \(overdueSQL)")
        case .overdue?: conditions.append(overdueSQL)
        case let status?:
            conditions.append("status = :status")
            arguments["status"] = status.rawValue.databaseValue
        }
        if let kind = filter.kind {
            conditions.append("item_kind = :kind")
            arguments["kind"] = kind.databaseValue
        }
        if let item = filter.itemID {
            conditions.append("item_id = :item")
            arguments["item"] = item.databaseValue
        }
        // The rows' statement marks overdue ones, so it always binds these.
        arguments.merge(overdue) { first, _ in first }
        return SQL(sql: conditions.joined(separator: " AND "), arguments: StatementArguments(arguments))
    }

    static func countSQL(_ conditions: SQL) -> SQL {
        "SELECT COUNT(*) FROM reminders INDEXED BY reminders_user WHERE \(conditions)"
    }

    /// One page: its rows found and ordered on the (user_id, scheduled_for) index, then
    /// their items looked up by id (and owner: another user's item is not named).
    static func rowsSQL(_ conditions: SQL, offset: Int) -> SQL {
        """
        SELECT r.id, r.item_kind, r.item_id,
               CASE WHEN typeof(r.days_before) = 'integer' THEN r.days_before END AS days_before,
               r.scheduled_for, r.status, r.sent_at, r.opened_at,
               CAST(CASE r.item_kind WHEN 'food' THEN f.name ELSE d.title END AS BLOB) AS item_name,
               CASE r.item_kind WHEN 'food' THEN f.deleted_at ELSE d.deleted_at END AS item_deleted_at,
               CASE r.item_kind WHEN 'food' THEN f.id ELSE d.id END AS item_found,
               CASE r.item_kind WHEN 'food' THEN f.consumed_at END AS item_consumed_at,
               CASE r.item_kind WHEN 'food' THEN (SELECT \(sql: UserItems.nearness) FROM food_items WHERE id = f.id)
                                ELSE (SELECT \(sql: UserItems.nearness) FROM documents WHERE id = d.id)
                                END AS item_nearness,
               \(sql: overdueSQL) AS overdue
        FROM (SELECT * FROM reminders INDEXED BY reminders_user WHERE \(conditions)
              ORDER BY scheduled_for DESC, id DESC LIMIT \(sql: String(pageSize)) OFFSET \(sql: String(offset))) r
        LEFT JOIN food_items f ON r.item_kind = 'food' AND f.id = r.item_id AND f.user_id = r.user_id
        LEFT JOIN documents d ON r.item_kind = 'document' AND d.id = r.item_id AND d.user_id = r.user_id
        ORDER BY r.scheduled_for DESC, r.id DESC
        """
    }

    static func summary(_ db: Database, _ arguments: StatementArguments) throws -> UserProfile.ReminderCounts {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COALESCE(SUM(status = 'scheduled' AND NOT \(overdueSQL)), 0) AS scheduled,
                       COALESCE(SUM(\(overdueSQL)), 0) AS overdue,
                       COALESCE(SUM(status = 'sent'), 0) AS sent,
                       COUNT(opened_at) AS opened,
                       COALESCE(SUM(status = 'failed'), 0) AS failed,
                       COALESCE(SUM(status = 'cancelled'), 0) AS cancelled
                FROM reminders INDEXED BY reminders_user WHERE user_id = :user
                """, arguments: arguments)
        return UserProfile.ReminderCounts(
            scheduled: (try row?.decode(forColumn: "scheduled") ?? 0),
            overdue: (try row?.decode(forColumn: "overdue") ?? 0),
            sent: (try row?.decode(forColumn: "sent") ?? 0), opened: (try row?.decode(forColumn: "opened") ?? 0),
            failed: (try row?.decode(forColumn: "failed") ?? 0),
            cancelled: (try row?.decode(forColumn: "cancelled") ?? 0))
    }
}
