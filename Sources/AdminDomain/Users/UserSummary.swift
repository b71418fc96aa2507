import GRDB

/// One user as lists and search results show them. Never the password hash.
public struct UserSummary: Sendable, Equatable, FetchableRecord {
    public let id: Int64
    public let email: String
    public let displayName: String?
    public let plan: String
    public let status: String
    public let createdAt: String
    public let lastActiveAt: String?
    /// Food items and documents not deleted; filled where a page shows it.
    public var itemCount: Int?

    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        email = try row.decode(forColumn: "email")
        displayName = try row.decode(forColumn: "display_name")
        plan = try row.decode(forColumn: "plan")
        status = try row.decode(forColumn: "status")
        createdAt = try row.decode(forColumn: "created_at")
        lastActiveAt = try row.decode(forColumn: "last_active_at")
        itemCount = try row.decode(forColumn: "item_count")
    }

    /// The columns `init(row:)` reads, for a `SELECT` over `users` aliased `u`.
    static let columns = "u.id, u.email, u.display_name, u.plan, u.status, u.created_at, u.last_active_at"
    /// The same with the live item count: two index lookups per user.
    static let columnsWithItemCount = columns + """
        , (SELECT COUNT(*) FROM food_items f WHERE f.user_id = u.id AND f.deleted_at IS NULL)
        + (SELECT COUNT(*) FROM documents d WHERE d.user_id = u.id AND d.deleted_at IS NULL) AS item_count
        """
}
