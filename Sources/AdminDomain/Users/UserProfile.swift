import Foundation
import GRDB

/// Everything support needs to explain what happened to one user, read in one short
/// transaction of indexed lookups. Values are decoded with `try` and integers the panel shows
/// are CAST in SQL: a row with an odd type is shown or refused, never a crash. Lists that can
/// grow without bound (items, activity) are paged elsewhere; here only their counts and the
/// latest rows.
/// Its times are the app's, written by the backend: kept as the text stored, not `PanelTime`,
/// so that a malformed one is shown as it is rather than refused.
public struct UserProfile: Sendable {
    public struct Account: Sendable, FetchableRecord {
        public let id: Int64
        public let email: String
        public let displayName: String?
        public let plan: Stored<Plan>
        public let status: Stored<AccountStatus>
        public let timezone: String
        public let locale: String
        public let householdID: Int64?
        public let createdAt: String
        public let lastActiveAt: String?
        public let emailVerifiedAt: String?

        /// The name to head the page with: the display name, or the email when the name is
        /// missing or shows nothing (spaces, invisible characters).
        public var shownName: String {
            guard let name = displayName,
                name.unicodeScalars.contains(where: {
                    !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint
                        && $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
                })
            else { return email }
            return name
        }

        /// The user's row, its text read whole; nil when there is none.
        static func fetchOne(_ db: Database, id: Int64) throws -> Account? {
            try fetchOne(
                db,
                sql: """
                    SELECT id,
                           \(wholeText("email", as: "email")),
                           \(wholeText("display_name", as: "display_name")),
                           plan, status, timezone, locale, household_id, created_at, last_active_at,
                           email_verified_at
                    FROM users WHERE id = ?
                    """, arguments: [id])
        }

        public init(row: Row) throws {
            id = try row.decode(forColumn: "id")
            email = try row.wholeText(required: "email")
            displayName = try row.wholeText("display_name")
            plan = try row.decode(forColumn: "plan")
            status = try row.decode(forColumn: "status")
            timezone = try row.decode(forColumn: "timezone")
            locale = try row.decode(forColumn: "locale")
            householdID = try row.decode(forColumn: "household_id")
            createdAt = try row.decode(forColumn: "created_at")
            lastActiveAt = try row.decode(forColumn: "last_active_at")
            emailVerifiedAt = try row.decode(forColumn: "email_verified_at")
        }
    }

    public struct Household: Sendable {
        public let id: Int64
        public let name: String
        public let members: [Member]
    }

    public struct Member: Sendable {
        public let id: Int64
        public let email: String
        public let displayName: String?
    }

    /// Items by status; consumed food is counted apart, whatever its date.
    public struct StatusCounts: Sendable, Equatable {
        public var expired = 0, expiringSoon = 0, safe = 0, consumed = 0
        public var total: Int { expired + expiringSoon + safe + consumed }

        public func count(of state: UserItems.State) -> Int {
            switch state {
            case .expired: expired
            case .expiringSoon: expiringSoon
            case .safe: safe
            case .consumed: consumed
            }
        }
    }

    public struct Device: Sendable {
        public let id: Int64
        public let platform: Stored<Platform>
        public let pushProvider: Stored<PushProvider>
        /// The last 6 characters only.
        public let maskedToken: String?
        /// The provider called this token dead in a push the panel sent.
        public let deadToken: DeadTokens.Known?
        public let pushPermission: Stored<PushPermission>
        public let appVersion: String?
        public let osVersion: String?
        public let createdAt: String
        public let lastSeenAt: String
    }

    public struct Settings: Sendable {
        public let pushEnabled: Bool
        public let foodReminders: Bool
        public let documentReminders: Bool
        public let marketingOptIn: Bool
        public let reminderDays: String
        public let dailyTime: String
        /// Read as the sender reads them.
        public let quietHours: QuietHours
    }

    public struct Subscription: Sendable {
        public let planType: String
        public let status: Stored<SubscriptionStatus>
        public let store: String
        public let priceCents: Int
        public let currency: String
        public let startedAt: String
        public let currentPeriodEnd: String
        public let cancelledAt: String?
    }

    public struct Reminder: Sendable {
        public let itemKind: Stored<ItemKind>
        public let itemName: String?
        public let daysBefore: Int
        public let scheduledFor: String
        public let status: Stored<ReminderStatus>
        public let sentAt: String?
        public let openedAt: String?
    }

    /// Every status: `scheduled` holds only those not yet overdue, so the statuses add up.
    public struct ReminderCounts: Sendable, Equatable {
        public var scheduled = 0, overdue = 0, sent = 0, opened = 0, failed = 0, cancelled = 0
        public init(
            scheduled: Int = 0, overdue: Int = 0, sent: Int = 0, opened: Int = 0, failed: Int = 0, cancelled: Int = 0
        ) {
            self.scheduled = scheduled
            self.overdue = overdue
            self.sent = sent
            self.opened = opened
            self.failed = failed
            self.cancelled = cancelled
        }
    }

    public let account: Account
    public let calendar: UserCalendar
    public let household: Household?
    public let food: StatusCounts
    public let documents: StatusCounts
    public let devices: [Device]
    public let settings: Settings?
    public let subscriptions: [Subscription]
    public let reminderCounts: ReminderCounts
    public let recentReminders: [Reminder]
    public let recentActivity: [ActivityEvent]
    /// What the reachability verdict reads beyond the rows above.
    public let evidence: Reachability.Evidence
    /// The moment the profile was read: what "the last 30 days" and "stale" count from.
    public let readAt: Date

    static let recentCount = 20

    /// Whether reminders and campaign pushes can reach the user, and why not.
    public var reachability: Reachability { Reachability(profile: self, evidence: evidence, now: readAt) }

    /// The store says premium while the app says free: support should look into it.
    public var hasActiveSubscriptionOnFreePlan: Bool {
        account.plan.known == .free && subscriptions.contains { $0.status.known == .active }
    }

    /// nil when there is no such user.
    /// `cache`: a heavy user's status counts are counted once a minute (see `HeavyUserCache`).
    public static func load(id: Int64, database: PanelDatabase, now: Date = Date(), cache: HeavyUserCache? = nil)
        async throws -> UserProfile?
    {
        let kept = await cache?.counts(userID: id, now: now)
        let profile = try await database.read { db -> UserProfile? in
            guard let account = try Account.fetchOne(db, id: id) else { return nil }
            let calendar = UserCalendar(timezone: account.timezone, now: now)
            let (food, documents) = try counts(db, userID: id, calendar: calendar, kept: kept)
            return UserProfile(
                account: account, calendar: calendar,
                household: try household(db, account.householdID),
                food: food, documents: documents,
                devices: try devices(db, userID: id),
                settings: try settings(db, userID: id),
                subscriptions: try subscriptions(db, userID: id),
                reminderCounts: try reminderCounts(db, userID: id, now: now),
                recentReminders: try reminders(db, userID: id),
                recentActivity: try ActivityEvent.fetchAll(
                    db,
                    sql: """
                        SELECT id, kind, detail, platform, created_at
                        FROM activity_events INDEXED BY activity_events_user_time
                        WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?
                        """, arguments: [id, recentCount]),
                evidence: try Reachability.evidence(userID: id, now: now, in: db), readAt: now)
        }
        if let profile, kept?.today != profile.calendar.today {
            await cache?.keep(
                .init(today: profile.calendar.today, food: profile.food, documents: profile.documents), userID: id,
                now: now)
        }
        return profile
    }

    private static func household(_ db: Database, _ id: Int64?) throws -> Household? {
        guard let id,
            let row = try Row.fetchOne(
                db, sql: "SELECT \(wholeText("name", as: "name")) FROM households WHERE id = ?", arguments: [id]),
            let name = try row.wholeText("name")
        else { return nil }
        let members = try Row.fetchAll(
            db,
            sql: """
                SELECT id, \(wholeText("email", as: "email")), \(wholeText("display_name", as: "display_name"))
                FROM users INDEXED BY users_household WHERE household_id = ? ORDER BY id LIMIT 50
                """, arguments: [id]
        ).map {
            Member(
                id: try $0.decode(forColumn: "id"), email: try $0.wholeText(required: "email"),
                displayName: try $0.wholeText("display_name"))
        }
        return Household(id: id, name: name, members: members)
    }

    /// Food's and documents' counts: kept ones for a heavy user when they are today's.
    static func counts(_ db: Database, userID: Int64, calendar: UserCalendar, kept: HeavyUserCache.Counts?) throws
        -> (food: StatusCounts, documents: StatusCounts)
    {
        let today = kept.flatMap { $0.today == calendar.today ? $0 : nil }
        return (
            try today?.food ?? counts(db, .food, userID: userID, calendar: calendar),
            try today?.documents ?? counts(db, .document, userID: userID, calendar: calendar)
        )
    }

    /// One pass over the user's rows through their `user_id` index.
    private static func counts(_ db: Database, _ kind: ItemKind, userID: Int64, calendar: UserCalendar) throws
        -> StatusCounts
    {
        let (table, index) = kind == .food ? ("food_items", "food_items_user") : ("documents", "documents_user")
        let consumed = kind == .food ? "consumed_at" : "NULL"
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COALESCE(SUM(\(consumed) IS NULL AND expiry_date < :today), 0) AS expired,
                       COALESCE(SUM(\(consumed) IS NULL AND expiry_date >= :today AND expiry_date <= :soon), 0)
                         AS expiring_soon,
                       COALESCE(SUM(\(consumed) IS NULL AND expiry_date > :soon), 0) AS safe,
                       COALESCE(SUM(\(consumed) IS NOT NULL), 0) AS consumed
                FROM \(table) INDEXED BY \(index) WHERE user_id = :user AND deleted_at IS NULL
                """, arguments: ["today": calendar.todayString, "soon": calendar.soonLimitString, "user": userID])
        return StatusCounts(
            expired: (try row?.decode(forColumn: "expired") ?? 0),
            expiringSoon: (try row?.decode(forColumn: "expiring_soon") ?? 0),
            safe: (try row?.decode(forColumn: "safe") ?? 0), consumed: (try row?.decode(forColumn: "consumed") ?? 0))
    }

    private static func devices(_ db: Database, userID: Int64) throws -> [Device] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, platform, push_provider, push_token, push_permission, app_version, os_version,
                       created_at, last_seen_at
                FROM devices INDEXED BY devices_user WHERE user_id = ? ORDER BY last_seen_at DESC LIMIT 50
                """, arguments: [userID]
        ).map { row in
            let token: String? = try row.decode(forColumn: "push_token")
            return Device(
                id: try row.decode(forColumn: "id"), platform: try row.decode(forColumn: "platform"),
                pushProvider: try row.decode(forColumn: "push_provider"),
                maskedToken: Masked.tail(token, keep: 6),
                deadToken: try token.flatMap { try DeadTokens.known(token: $0, in: db) },
                pushPermission: try row.decode(forColumn: "push_permission"),
                appVersion: try row.decode(forColumn: "app_version"),
                osVersion: try row.decode(forColumn: "os_version"), createdAt: try row.decode(forColumn: "created_at"),
                lastSeenAt: try row.decode(forColumn: "last_seen_at"))
        }
    }

    private static func settings(_ db: Database, userID: Int64) throws -> Settings? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT CAST(push_enabled AS INTEGER) <> 0 AS push_enabled,
                       CAST(food_reminders AS INTEGER) <> 0 AS food_reminders,
                       CAST(document_reminders AS INTEGER) <> 0 AS document_reminders,
                       CAST(marketing_opt_in AS INTEGER) <> 0 AS marketing_opt_in,
                       reminder_days, daily_time, quiet_start, quiet_end
                FROM notification_settings WHERE user_id = ?
                """, arguments: [userID]
        ).map { row in
            Settings(
                pushEnabled: try row.decode(forColumn: "push_enabled"),
                foodReminders: try row.decode(forColumn: "food_reminders"),
                documentReminders: try row.decode(forColumn: "document_reminders"),
                marketingOptIn: try row.decode(forColumn: "marketing_opt_in"),
                reminderDays: try row.decode(forColumn: "reminder_days"),
                dailyTime: try row.decode(forColumn: "daily_time"),
                quietHours: QuietHours(start: row["quiet_start"], end: row["quiet_end"]))
        }
    }

    private static func subscriptions(_ db: Database, userID: Int64) throws -> [Subscription] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT plan_type, status, store, CAST(price_cents AS INTEGER) AS price_cents, currency,
                       started_at, current_period_end, cancelled_at
                FROM subscriptions INDEXED BY subscriptions_user
                WHERE user_id = ? ORDER BY started_at DESC LIMIT 50
                """, arguments: [userID]
        ).map { row in
            Subscription(
                planType: try row.decode(forColumn: "plan_type"), status: try row.decode(forColumn: "status"),
                store: try row.decode(forColumn: "store"),
                priceCents: try row.decode(forColumn: "price_cents"), currency: try row.decode(forColumn: "currency"),
                startedAt: try row.decode(forColumn: "started_at"),
                currentPeriodEnd: try row.decode(forColumn: "current_period_end"),
                cancelledAt: try row.decode(forColumn: "cancelled_at"))
        }
    }

    /// One pass over the user's reminders through their index, counted as their reminders page counts them.
    private static func reminderCounts(_ db: Database, userID: Int64, now: Date) throws -> ReminderCounts {
        try UserReminders.summary(
            db,
            ["user": userID, "overdueBefore": UserReminders.overdueBefore(now), "pattern": Reachability.timePattern])
    }

    private static func reminders(_ db: Database, userID: Int64) throws -> [Reminder] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT r.item_kind,
                       CASE r.item_kind WHEN :food THEN f.name ELSE d.title END AS item_name,
                       CAST(r.days_before AS INTEGER) AS days_before,
                       r.scheduled_for, r.status, r.sent_at, r.opened_at
                FROM reminders r INDEXED BY reminders_user
                LEFT JOIN food_items f ON r.item_kind = :food AND f.id = r.item_id
                LEFT JOIN documents d ON r.item_kind = :document AND d.id = r.item_id
                WHERE r.user_id = :user ORDER BY r.scheduled_for DESC LIMIT :limit
                """,
            arguments: ["food": ItemKind.food, "document": ItemKind.document, "user": userID, "limit": recentCount]
        ).map { row in
            Reminder(
                itemKind: try row.decode(forColumn: "item_kind"), itemName: try row.decode(forColumn: "item_name"),
                daysBefore: try row.decode(forColumn: "days_before"),
                scheduledFor: try row.decode(forColumn: "scheduled_for"),
                status: try row.decode(forColumn: "status"), sentAt: try row.decode(forColumn: "sent_at"),
                openedAt: try row.decode(forColumn: "opened_at"))
        }
    }
}

/// One row of `activity_events`.
public struct ActivityEvent: Sendable, Equatable, FetchableRecord {
    public let id: Int64
    public let kind: String
    public let detail: String?
    public let platform: Stored<Platform>?
    public let createdAt: String

    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        kind = try row.decode(forColumn: "kind")
        detail = try row.decode(forColumn: "detail")
        platform = try row.decode(forColumn: "platform")
        createdAt = try row.decode(forColumn: "created_at")
    }
}
