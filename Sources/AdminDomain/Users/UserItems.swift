import Foundation
import GRDB

/// A user's food items or documents, filtered and paged by (nearness to today, id) through
/// the `user_id` index: a user with 20,000 items costs one index range and a sort per page.
public struct UserItems: Sendable {
    public enum State: String, CaseIterable, Sendable {
        case expired
        case expiringSoon = "expiring_soon"
        case safe, consumed

        public var label: String {
            switch self {
            case .expired: "Expired"
            case .expiringSoon: "Expiring soon"
            case .safe: "Safe"
            case .consumed: "Consumed"
            }
        }
    }

    public struct Filter: Sendable, Hashable {
        public var kind: ItemKind = .food
        public var state: State?
        /// Food: its category. Documents: the document type.
        public var category: String?
        /// Food only.
        public var storage: String?
        /// Items whose name (a document's title) holds this text, ASCII letters in any case;
        /// matched among this user's rows only, read through the user index.
        public var name: String?

        public init(
            kind: ItemKind = .food, state: State? = nil, category: String? = nil, storage: String? = nil,
            name: String? = nil
        ) {
            self.kind = kind
            self.state = state
            self.category = category
            self.storage = storage
            self.name = name
        }
    }

    /// Where a page starts: after this nearness to today and id.
    public struct Cursor: Sendable, Hashable, Comparable {
        public let nearness: Int64
        public let id: Int64

        public static func < (lhs: Cursor, rhs: Cursor) -> Bool {
            (lhs.nearness, lhs.id) < (rhs.nearness, rhs.id)
        }

        public init(nearness: Int64, id: Int64) {
            self.nearness = nearness
            self.id = id
        }
    }

    public struct Item: Sendable, Equatable {
        public let id: Int64
        public let name: String
        /// Food: category. Documents: the type, or the user's own name for a custom one.
        public let category: String
        public let storage: String?
        public let quantity: String?
        /// Documents only: the last 3 characters of the number.
        public let maskedNumber: String?
        public let expiryDate: String
        public let state: State
        /// Days from today in the user's timezone; negative once expired.
        public let daysRemaining: Int64?
        public let createdAt: String
        public let consumedAt: String?
    }

    public struct Page: Sendable {
        public let items: [Item]
        /// The last item shown, when more follow: where the next page starts after.
        public let next: Cursor?
        /// The first item shown, when items precede it: where the previous page ends before.
        public var previous: Cursor? = nil
        /// How many items of the list come before this page (0 on the first page).
        public var offset = 0
        /// Every item of the list: exact, since the order is read whole from one user's rows.
        public var total = 0
    }

    /// Where a page starts: after a cursor (Next), before one (Previous), or at the top.
    public enum Position: Sendable, Hashable {
        case first
        case after(Cursor)
        case before(Cursor)
    }

    public static let pageSize = 50
    public static let foodCategories = [
        "Dairy", "Meat", "Seafood", "Vegetables", "Fruits", "Grains", "Beverages",
        "Condiments", "Frozen", "Other",
    ]
    public static let storages = ["Refrigerator", "Freezer", "Pantry", "Counter"]
    public static let documentTypes = [
        "passport", "visa", "drivers_license", "id_card", "insurance", "membership", "custom",
    ]

    let database: PanelDatabase
    let cache: HeavyUserCache?

    public init(database: PanelDatabase, cache: HeavyUserCache? = nil) {
        self.database = database
        self.cache = cache
    }

    /// The list's order (nearness and id of every item that passes the filter, from the
    /// user's index), kept for a heavy user; then the page's rows by their ids.
    public func page(userID: Int64, calendar: UserCalendar, filter: Filter, after: Cursor?, now: Date = Date())
        async throws -> Page
    {
        try await page(
            userID: userID, calendar: calendar, filter: filter, at: after.map(Position.after) ?? .first, now: now)
    }

    /// The page at `position`: Next goes after its cursor, Previous ends just before its
    /// cursor, so Next then Previous shows the same page again.
    public func page(userID: Int64, calendar: UserCalendar, filter: Filter, at position: Position, now: Date = Date())
        async throws -> Page
    {
        let key = HeavyUserCache.OrderKey(userID: userID, filter: filter, today: calendar.today)
        let order: [Cursor]
        if let kept = await cache?.order(key, now: now) {
            order = kept
        } else {
            let query = Self.orderQuery(userID: userID, calendar: calendar, filter: filter)
            order = try await database.read { db in
                try Row.fetchAll(db, SQLRequest(literal: query)).map {
                    Cursor(nearness: try $0.decode(forColumn: "nearness"), id: try $0.decode(forColumn: "id"))
                }
            }
            await cache?.keep(order, for: key, now: now)
        }
        let start: Int =
            switch position {
            case .first: 0
            case .after(let cursor): order.firstIndex { $0 > cursor } ?? order.count
            // The page that ends just before the cursor: a full one, unless the list starts sooner.
            case .before(let cursor): max(0, (order.firstIndex { $0 >= cursor } ?? order.count) - Self.pageSize)
            }
        let shown = Array(order[start..<min(start + Self.pageSize, order.count)])
        guard !shown.isEmpty else { return Page(items: [], next: nil, offset: start, total: order.count) }
        let query = Self.rowsQuery(kind: filter.kind, ids: shown.map(\.id))
        let items: [Item] = try await database.read { db in
            let rows = try Row.fetchAll(db, SQLRequest(literal: query))
            let byID = Dictionary(
                try rows.map { (try $0.decode(forColumn: "id") as Int64, $0) }, uniquingKeysWith: { first, _ in first })
            return try shown.compactMap { position in
                try byID[position.id].map { try Self.item($0, calendar: calendar) }
            }
        }
        let next = start + Self.pageSize < order.count ? shown.last : nil
        return Page(
            items: items, next: next, previous: start > 0 ? shown.first : nil, offset: start, total: order.count)
    }

    private static func item(_ row: Row, calendar: UserCalendar) throws -> Item {
        let expiry: String = try row.decode(forColumn: "expiry_date")
        let consumedAt: String? = try row.decode(forColumn: "consumed_at")
        let state: State =
            if consumedAt != nil {
                .consumed
            } else {
                switch calendar.status(of: expiry) {
                case .expired: .expired
                case .expiringSoon: .expiringSoon
                // A date the calendar cannot read sorts among the safe ones.
                case .safe, nil: .safe
                }
            }
        return Item(
            id: try row.decode(forColumn: "id"), name: try row.wholeText(required: "name"),
            category: try row.decode(forColumn: "category"), storage: try row.decode(forColumn: "storage"),
            quantity: try row.decode(forColumn: "quantity"),
            maskedNumber: Masked.tail(try row.decode(forColumn: "number"), keep: 3), expiryDate: expiry,
            state: state, daysRemaining: calendar.daysRemaining(until: expiry),
            createdAt: try row.decode(forColumn: "created_at"),
            consumedAt: consumedAt)
    }

    /// Nearest to today first, in the user's calendar: days away, twice, plus one for a day
    /// still to come, so yesterday's expiry (2) follows today's (1) and precedes tomorrow's
    /// (3). Dates SQLite cannot read come last.
    static let nearness = """
        COALESCE(
          CAST(ABS(julianday(expiry_date) - julianday(:today)) AS INTEGER) * 2 + (expiry_date >= :today),
          9000000000)
        """

    static func columns(_ kind: ItemKind) -> String {
        kind == .food
            ? "id, \(wholeText("name", as: "name")), category, storage, quantity, NULL AS number, "
                + "expiry_date, created_at, consumed_at"
            : "id, \(wholeText("title", as: "name")), "
                + "CASE WHEN doc_type = 'custom' AND custom_type IS NOT NULL THEN custom_type "
                + "ELSE doc_type END AS category, NULL AS storage, NULL AS quantity, number, expiry_date, "
                + "created_at, NULL AS consumed_at"
    }

    /// Every item of the list, as (id, nearness), in order: one pass over the user's index.
    static func orderQuery(userID: Int64, calendar: UserCalendar, filter: Filter) -> SQL {
        let food = filter.kind == .food
        var conditions = ["user_id = :user", "deleted_at IS NULL"]
        var arguments: [String: (any DatabaseValueConvertible)?] = [
            "user": userID, "today": calendar.todayString, "soon": calendar.soonLimitString,
        ]
        let live = food ? "consumed_at IS NULL AND " : ""
        switch filter.state {
        case .expired?: conditions.append("\(live)expiry_date < :today")
        case .expiringSoon?: conditions.append("\(live)expiry_date >= :today AND expiry_date <= :soon")
        case .safe?: conditions.append("\(live)expiry_date > :soon")
        case .consumed?: conditions.append(food ? "consumed_at IS NOT NULL" : "0")
        // What support asks about: items still in use. Consumed ones only when asked for.
        case nil: if food { conditions.append("consumed_at IS NULL") }
        }
        if let category = filter.category {
            conditions.append(food ? "category = :category" : "doc_type = :category")
            arguments["category"] = category
        }
        if let storage = filter.storage {
            conditions.append(food ? "storage = :storage" : "0")
            arguments["storage"] = storage
        }
        // Tested on the user's rows only, which the index has already narrowed to: bounded by
        // one user's items, never a scan of the table. instr, not LIKE: % and _ stay literal.
        if let name = filter.name, !name.isEmpty {
            conditions.append("instr(lower(\(food ? "name" : "title")), lower(:name)) > 0")
            arguments["name"] = name
        }
        // INDEXED BY: the planner might otherwise walk the expiry index of every user's rows.
        let table = food ? "food_items INDEXED BY food_items_user" : "documents INDEXED BY documents_user"
        let sql = """
            SELECT id, \(nearness) AS nearness FROM \(table)
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY nearness, id
            """
        return SQL(sql: sql, arguments: StatementArguments(arguments))
    }

    /// One page's rows, by primary key.
    static func rowsQuery(kind: ItemKind, ids: [Int64]) -> SQL {
        let table = kind == .food ? "food_items" : "documents"
        return SQL(
            sql: "SELECT \(columns(kind)) FROM \(table) WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
            arguments: StatementArguments(ids))
    }
}
