import GRDB

/// One user as lists and search results show them. Never the password hash.
public struct UserSummary: Sendable, Equatable, FetchableRecord {
    public let id: Int64
    public let email: String
    public let displayName: String?
    public let plan: Stored<Plan>
    public let status: Stored<AccountStatus>
    public let createdAt: String
    public let lastActiveAt: String?
    /// Food items and documents, each kind counted up to `itemCountCap` from its `user_id`
    /// index alone: rows soft-deleted in the last 30 days (until the backend purges them)
    /// are included, which keeps a page of results free of row reads. The profile counts
    /// exactly. Filled where a page shows it.
    public var itemCount: Int?
    /// True when a kind reached the cap: the count is a lower bound ("1,000+").
    public var itemCountIsCapped = false
    /// Counting stops here, so a user with 20,000 items costs no more than one with 1,000.
    public static let itemCountCap = 1_000

    /// A user by hand: for views rendered without a database.
    init(
        id: Int64, email: String, displayName: String?, plan: Stored<Plan>, status: Stored<AccountStatus>,
        createdAt: String, lastActiveAt: String?, itemCount: Int? = nil
    ) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.plan = plan
        self.status = status
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt
        self.itemCount = itemCount
    }

    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        email = try row.wholeText(required: "email")
        displayName = try row.wholeText("display_name")
        plan = try row.decode(forColumn: "plan")
        status = try row.decode(forColumn: "status")
        createdAt = try row.decode(forColumn: "created_at")
        lastActiveAt = try row.decode(forColumn: "last_active_at")
        let food: Int? = try row.decode(forColumn: "food_count")
        let documents: Int? = try row.decode(forColumn: "document_count")
        if let food, let documents {
            itemCount = food + documents
            itemCountIsCapped = food >= Self.itemCountCap || documents >= Self.itemCountCap
        }
    }

    /// The columns `init(row:)` reads, for a `SELECT` over `users` aliased `u`; what users
    /// typed is read whole (see `wholeText`).
    static let columns =
        "u.id, \(wholeText("u.email", as: "email")), \(wholeText("u.display_name", as: "display_name")), "
        + "u.plan, u.status, u.created_at, u.last_active_at"
    /// The same with the item counts, index-only and capped.
    static let columnsWithItemCount =
        columns + """
            , (SELECT COUNT(*) FROM (SELECT 1 FROM food_items f WHERE f.user_id = u.id LIMIT \(itemCountCap)))
                AS food_count
            , (SELECT COUNT(*) FROM (SELECT 1 FROM documents d WHERE d.user_id = u.id LIMIT \(itemCountCap)))
                AS document_count
            """
}
