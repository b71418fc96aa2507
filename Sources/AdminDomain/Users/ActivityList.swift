import Foundation
import GRDB

/// Users by how recently they used the app, from `users.last_active_at` (UTC):
/// active since 7 days ago (the dashboard's definition), idle from 30 to 7 days ago,
/// inactive before that, never active when it is NULL.
public enum ActivityBucket: String, CaseIterable, Sendable {
    case active, idle, inactive, never

    public var label: String {
        switch self {
        case .active: "Active (last 7 days)"
        case .idle: "Idle (8 to 29 days)"
        case .inactive: "Inactive (30+ days)"
        case .never: "Never active"
        }
    }

    /// The bucket as a condition on `last_active_at`, a range of its index.
    func condition(now: Date) -> SQLCondition {
        let week = SQLiteTime.string(now.addingTimeInterval(-7 * 86_400))
        let month = SQLiteTime.string(now.addingTimeInterval(-30 * 86_400))
        return switch self {
        case .active: SQLCondition("u.last_active_at >= :week", ["week": week])
        case .idle: SQLCondition("u.last_active_at >= :month AND u.last_active_at < :week", ["week": week, "month": month])
        case .inactive: SQLCondition("u.last_active_at < :month", ["month": month])
        case .never: SQLCondition("u.last_active_at IS NULL")
        }
    }
}

/// The order of an activity list.
public enum ActivitySort: String, CaseIterable, Sendable {
    case lastActive = "last_active", signUp = "sign_up"
}

/// An activity list: which users, in which order.
public struct ActivityListQuery: Sendable, Equatable {
    public var filter: UserFilter
    public var sort: ActivitySort

    public init(_ filter: UserFilter, sort: ActivitySort = .lastActive) {
        self.filter = filter
        self.sort = sort
    }

    /// The never-active have no last activity to order by: they come newest sign-up first.
    public var ordersBySignUp: Bool {
        sort == .signUp || filter.bucket == .never
    }
}

/// The list's size: exact, or estimated from a sample when the filters need each row read.
public struct ListSize: Sendable, Equatable {
    public let value: Int
    public let isEstimate: Bool
}

/// A page of an activity list, keyset-paged on the sort column and id.
public struct ActivityPage: Sendable {
    public let users: [UserSummary]
    /// Where the next page starts, if the list goes on.
    public let next: ActivityCursor?
    /// True when the page looked at its whole budget of candidates and found fewer than a
    /// page: there may be more further on.
    public let stoppedOnBudget: Bool
}

public struct ActivityCursor: Sendable, Equatable {
    /// The sort column's value at the last row looked at (NULL for the never-active bucket's last-active sort).
    public let key: String?
    public let id: Int64

    public init(key: String?, id: Int64) {
        self.key = key
        self.id = id
    }
}

/// The activity lists. Every query walks one index of `users` newest first (pinned with
/// INDEXED BY): the last-active index for the buckets, the sign-up index when sorted by
/// sign-up. Candidates come from the index alone, in order, a chunk at a time; filters that
/// need the row are applied to each chunk, so a page reads at most `candidateBudget` rows.
public struct ActivityLists: Sendable {
    let database: PanelDatabase
    public static let pageSize = 50
    public static let candidateBudget = 10_000
    /// Candidates read to estimate a filtered list's size.
    public static let sampleSize = 5_000
    static let chunkSize = 1_000

    public init(database: PanelDatabase) {
        self.database = database
    }

    /// How a filter becomes queries.
    struct Plan: Sendable {
        /// Ordered candidate ids and sort keys from one index, without the keyset condition.
        let index: String
        let key: String
        let conditions: [String]
        /// Conditions that need the row.
        let rowFilters: [String]
        let arguments: [String: DatabaseValue]

        init(_ query: ActivityListQuery, now: Date) {
            let filter = query.filter
            let bucket = filter.bucket.condition(now: now)
            let signUp = filter.signUpConditions
            let indexed: [SQLCondition]
            var rowFilters: [SQLCondition]
            if filter.bucket == .never {
                // Never active: one value of the last-active index, whose rows follow id order.
                (index, key) = ("users_last_active_at", "u.id")
                (indexed, rowFilters) = ([bucket], signUp)
            } else if query.sort == .signUp {
                (index, key) = ("users_created_at", "u.created_at")
                (indexed, rowFilters) = (signUp, [bucket])
            } else {
                (index, key) = ("users_last_active_at", "u.last_active_at")
                (indexed, rowFilters) = ([bucket], signUp)
            }
            rowFilters += filter.attributeConditions
            conditions = indexed.map(\.sql)
            self.rowFilters = rowFilters.map(\.sql)
            arguments = (indexed + rowFilters).reduce(into: [:]) { all, condition in all.merge(condition.arguments) { $1 } }
        }

        func candidates(after: ActivityCursor?, limit: Int) -> (String, StatementArguments) {
            var conditions = self.conditions
            var arguments = self.arguments
            if let after {
                if key == "u.id" {
                    conditions.append("u.id < :afterID")
                } else {
                    conditions.append("(\(key), u.id) < (:afterKey, :afterID)")
                    arguments["afterKey"] = after.key.databaseValue
                }
                arguments["afterID"] = after.id.databaseValue
            }
            arguments["limit"] = limit.databaseValue
            let sql = """
                SELECT u.id, \(key == "u.id" ? "NULL" : key) FROM users u INDEXED BY \(index)
                WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))
                ORDER BY \(key) DESC, u.id DESC LIMIT :limit
                """
            return (sql, StatementArguments(arguments))
        }

        /// The rows of some candidates that pass the row filters.
        func rows(ids: [Int64]) -> (String, StatementArguments) {
            let arguments = self.arguments
            let list = ids.map(String.init).joined(separator: ",")
            let sql = """
                SELECT \(UserSummary.columns) FROM users u
                WHERE u.id IN (\(list))\(rowFilters.map { " AND " + $0 }.joined())
                """
            return (sql, StatementArguments(arguments))
        }

        /// The candidate range's size, from the index alone.
        var countSQL: String {
            "SELECT COUNT(*) FROM users u INDEXED BY \(index) WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))"
        }
    }

    /// One page: up to `pageSize` users, reading candidates until the page is full or the
    /// budget is spent.
    public func page(_ query: ActivityListQuery, after: ActivityCursor?, now: Date = Date()) async throws -> ActivityPage {
        let plan = Plan(query, now: now)
        var cursor = after
        var users: [UserSummary] = []
        var read = 0
        var exhausted = false
        while users.count <= Self.pageSize, read < Self.candidateBudget, !exhausted {
            let want = plan.rowFilters.isEmpty ? Self.pageSize + 1 - users.count : Self.chunkSize
            let (chunk, matched) = try await candidatesAndRows(plan, after: cursor, limit: want)
            read += chunk.count
            exhausted = chunk.count < want
            for candidate in chunk {
                guard users.count <= Self.pageSize else { break }
                cursor = candidate
                if let user = matched[candidate.id] { users.append(user) }
            }
        }
        if users.count > Self.pageSize {
            let last = users[Self.pageSize - 1]
            users.removeLast(users.count - Self.pageSize)
            return ActivityPage(users: users, next: Self.cursor(for: last, plan: plan), stoppedOnBudget: false)
        }
        return ActivityPage(users: users, next: exhausted ? nil : cursor, stoppedOnBudget: !exhausted)
    }

    /// Every user of the list, in order, a chunk at a time: memory stays flat however long it is.
    public func forEachChunk(_ query: ActivityListQuery, now: Date = Date(),
                             _ body: ([UserSummary]) async throws -> Void) async throws {
        let plan = Plan(query, now: now)
        var cursor: ActivityCursor?
        while true {
            let (chunk, matched) = try await candidatesAndRows(plan, after: cursor, limit: Self.chunkSize)
            let users = chunk.compactMap { matched[$0.id] }
            if !users.isEmpty { try await body(users) }
            guard chunk.count == Self.chunkSize, let last = chunk.last else { return }
            cursor = last
        }
    }

    /// The list's size: an index range count for a bucket alone; otherwise the share of
    /// matches in the first candidates, scaled to the range (labelled an estimate).
    public func size(_ filter: UserFilter, now: Date = Date()) async throws -> ListSize {
        // The size does not depend on the order: counted on the bucket's own range of the
        // last-active index, never on the whole sign-up index.
        let plan = Plan(ActivityListQuery(filter, sort: .lastActive), now: now)
        let range = try await database.read { db in
            try Int.fetchOne(db, sql: plan.countSQL, arguments: StatementArguments(plan.arguments)) ?? 0
        }
        guard !plan.rowFilters.isEmpty, range > 0 else { return ListSize(value: range, isEstimate: false) }
        var cursor: ActivityCursor?
        var read = 0, matches = 0
        while read < Self.sampleSize {
            let (chunk, matched) = try await candidatesAndRows(plan, after: cursor, limit: Self.chunkSize)
            read += chunk.count
            matches += matched.count
            guard chunk.count == Self.chunkSize, let last = chunk.last else {
                return ListSize(value: matches, isEstimate: false)
            }
            cursor = last
        }
        return ListSize(value: Int((Double(matches) / Double(read) * Double(range)).rounded()), isEstimate: true)
    }

    /// One chunk of candidates in order, and those of them that pass the row filters.
    private func candidatesAndRows(_ plan: Plan, after: ActivityCursor?,
                                   limit: Int) async throws -> ([ActivityCursor], [Int64: UserSummary]) {
        try await database.read { db in
            let (sql, arguments) = plan.candidates(after: after, limit: limit)
            let chunk = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                ActivityCursor(key: try row.decode(atIndex: 1), id: try row.decode(atIndex: 0))
            }
            guard !chunk.isEmpty else { return ([], [:]) }
            let (rowSQL, rowArguments) = plan.rows(ids: chunk.map(\.id))
            let users = try UserSummary.fetchAll(db, sql: rowSQL, arguments: rowArguments)
            return (chunk, Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) }))
        }
    }

    private static func cursor(for user: UserSummary, plan: Plan) -> ActivityCursor {
        switch plan.key {
        case "u.id": ActivityCursor(key: nil, id: user.id)
        case "u.created_at": ActivityCursor(key: user.createdAt, id: user.id)
        default: ActivityCursor(key: user.lastActiveAt, id: user.id)
        }
    }
}
