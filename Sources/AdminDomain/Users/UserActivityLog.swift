import GRDB

/// One user's activity events, newest first, through the (user_id, created_at) index.
public struct UserActivityLog: Sendable {
    public struct Filter: Sendable, Equatable {
        public var kind: String?
        /// Days, inclusive, in UTC.
        public var from: Day?
        public var to: Day?

        public init(kind: String? = nil, from: Day? = nil, to: Day? = nil) {
            self.kind = kind
            self.from = from
            self.to = to
        }
    }

    public struct Page: Sendable {
        public let events: [ActivityEvent]
        /// The last event shown, when there are older ones.
        public let next: ActivityCursor?
    }

    /// The kinds the backend writes (the schema's comment).
    public static let kinds = [
        "sign_up", "login", "logout", "password_reset", "item_added", "item_updated", "item_consumed",
        "item_deleted", "document_added", "document_updated", "document_deleted", "upgraded",
        "downgraded", "export", "settings_changed", "push_opened",
    ]
    public static let pageSize = 50

    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func page(userID: Int64, filter: Filter, before: ActivityCursor?) async throws -> Page {
        var conditions = ["user_id = :user"]
        var arguments: [String: DatabaseValue] = [
            "user": userID.databaseValue, "limit": (Self.pageSize + 1).databaseValue,
        ]
        if let kind = filter.kind {
            conditions.append("kind = :kind")
            arguments["kind"] = kind.databaseValue
        }
        if let from = filter.from {
            conditions.append("created_at >= :from")
            arguments["from"] = from.databaseValue
        }
        if let to = filter.to {
            conditions.append("created_at < date(:to, '+1 day')")
            arguments["to"] = to.databaseValue
        }
        if let before, let key = before.key {
            conditions.append("(created_at, id) < (:beforeAt, :beforeID)")
            arguments["beforeAt"] = key.databaseValue
            arguments["beforeID"] = before.id.databaseValue
        }
        let sql = """
            SELECT id, kind, detail, platform, created_at FROM activity_events INDEXED BY activity_events_user_time
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY created_at DESC, id DESC LIMIT :limit
            """
        let statementArguments = StatementArguments(arguments)
        let events = try await database.read { db in
            try ActivityEvent.fetchAll(db, sql: sql, arguments: statementArguments)
        }
        let shown = Array(events.prefix(Self.pageSize))
        let next = events.count > Self.pageSize ? shown.last.map { ActivityCursor(key: $0.createdAt, id: $0.id) } : nil
        return Page(events: shown, next: next)
    }
}
