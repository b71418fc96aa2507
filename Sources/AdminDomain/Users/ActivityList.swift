import Foundation
import GRDB

/// Users by how recently they used the app, from `users.last_active_at` (UTC):
/// active since 7 days ago (the dashboard's definition), idle from 30 to 7 days ago,
/// inactive before that, never active when it is NULL. A last activity a day or more
/// ahead of now, or text that sorts after every time ("yesterday", "2026-13-45"), is in
/// no bucket: a clock that far off says nothing about when the user was last seen.
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
        case .active: SQLCondition("u.last_active_at >= :week AND u.last_active_at < :ahead", ["week": week, "ahead": Self.aheadFrom(now: now)])
        case .idle: SQLCondition("u.last_active_at >= :month AND u.last_active_at < :week", ["week": week, "month": month])
        case .inactive: SQLCondition("u.last_active_at < :month", ["month": month])
        case .never: SQLCondition("u.last_active_at IS NULL")
        }
    }

    /// Last activities from here on are in no bucket: a day ahead of now.
    public static func aheadFrom(now: Date) -> String {
        SQLiteTime.string(now.addingTimeInterval(86_400))
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
    /// An estimate's half-width at 95% confidence: the list holds `value ± margin` users.
    public var margin: Int?
    /// A count the background refresher made (the dashboard's): when.
    public var countedAt: Date?
    /// Only a floor is known: the rows seen so far, more than the estimate allowed for.
    public var isAtLeast = false

    public init(value: Int, isEstimate: Bool, margin: Int? = nil, countedAt: Date? = nil, isAtLeast: Bool = false) {
        self.value = value
        self.isEstimate = isEstimate
        self.margin = margin
        self.countedAt = countedAt
        self.isAtLeast = isAtLeast
    }
}

/// A page of an activity list, keyset-paged on the sort column and id.
public struct ActivityPage: Sendable {
    public let users: [UserSummary]
    /// Where the next page starts, if the list goes on.
    public let next: ActivityCursor?
    /// True when the page looked at its whole budget of candidates and found fewer than a
    /// page: there may be more further on.
    public let stoppedOnBudget: Bool
    /// Candidates this page read from the index, for saying how far a short page looked.
    public var candidatesRead = 0
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
    /// A filtered page reads on until it is full or has read this many candidates. At
    /// 10,000, a filter matching one user in a thousand showed "0 on this page" and a Next
    /// link, page after page; this many cost about a fifth of a second at worst, in reads of
    /// at most `largestChunk` rows, each a short transaction of its own.
    public static let candidateBudget = 50_000
    /// A filtered list of up to this many candidates is counted exactly.
    public static let exactUpTo = 5_000
    /// Rows an estimate samples: each costs a row read and the filters' lookups.
    public static let sampleSize = 2_000
    /// Slices of the bucket's range that an estimate samples, each in proportion to its size.
    static let strata = 10
    static let chunkSize = 1_000
    /// A page that keeps not filling reads ever larger chunks, up to this many rows.
    static let largestChunk = 8_000

    public init(database: PanelDatabase) {
        self.database = database
    }

    /// How a filter becomes queries.
    struct Plan: Sendable {
        /// Ordered candidate ids and sort keys from one index, without the keyset condition.
        let index: String
        let key: String
        var conditions: [String]
        /// Conditions that need the row.
        let rowFilters: [String]
        var arguments: [String: DatabaseValue]

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
                SELECT u.id AS id, \(key == "u.id" ? "NULL" : key) AS sort_key FROM users u INDEXED BY \(index)
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

        /// The smallest and largest key of the candidate range, each from one end of the
        /// index (MIN and MAX in one query would read the whole range).
        var boundsSQL: String {
            let range = "FROM users u INDEXED BY \(index) WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))"
            return "SELECT (SELECT MIN(\(key)) \(range)) AS low, (SELECT MAX(\(key)) \(range)) AS high"
        }

        /// The same range narrowed to keys from `from` up to `to`, inside the range's own
        /// bounds. A time slice replaces the bucket's bounds rather than adding to them:
        /// SQLite seeks an index range on one pair of bounds and would read the rest of the
        /// bucket for each slice. An id slice (the never-active) keeps `IS NULL` before it.
        func slice(from: some DatabaseValueConvertible, to: some DatabaseValueConvertible, last: Bool) -> Plan {
            var narrowed = self
            if key != "u.id" { narrowed.conditions = [] }
            narrowed.conditions.append("\(key) >= :sliceFrom")
            narrowed.conditions.append(last ? "\(key) <= :sliceTo" : "\(key) < :sliceTo")
            narrowed.arguments["sliceFrom"] = from.databaseValue
            narrowed.arguments["sliceTo"] = to.databaseValue
            return narrowed
        }

        /// The candidate range's size, from the index alone.
        var countSQL: String {
            "SELECT COUNT(*) FROM users u INDEXED BY \(index) WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))"
        }
    }

    /// One page: up to `pageSize` users, reading candidates until the page is full or the
    /// budget is spent.
    /// `budget`: candidates read at most (tests pass a smaller one).
    public func page(_ query: ActivityListQuery, after: ActivityCursor?, now: Date = Date(),
                     budget: Int = ActivityLists.candidateBudget) async throws -> ActivityPage {
        let plan = Plan(query, now: now)
        var cursor = after
        var users: [UserSummary] = []
        var read = 0
        var exhausted = false
        var chunkSize = Self.chunkSize
        while users.count <= Self.pageSize, read < budget, !exhausted {
            let want = plan.rowFilters.isEmpty ? Self.pageSize + 1 - users.count : min(chunkSize, budget - read)
            let (chunk, matched) = try await candidatesAndRows(plan, after: cursor, limit: want)
            read += chunk.count
            exhausted = chunk.count < want
            for candidate in chunk {
                guard users.count <= Self.pageSize else { break }
                cursor = candidate
                if let user = matched[candidate.id] { users.append(user) }
            }
            // Few matches so far: fewer, larger reads for the rest.
            chunkSize = min(chunkSize * 2, Self.largestChunk)
        }
        if users.count > Self.pageSize {
            let last = users[Self.pageSize - 1]
            users.removeLast(users.count - Self.pageSize)
            return ActivityPage(users: users, next: Self.cursor(for: last, plan: plan), stoppedOnBudget: false, candidatesRead: read)
        }
        return ActivityPage(users: users, next: exhausted ? nil : cursor, stoppedOnBudget: !exhausted, candidatesRead: read)
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

    /// The list's size. A range of the last-active index is counted from the index alone;
    /// when the filters need each row and the range holds more than `exactUpTo` users,
    /// the size is estimated from a stratified sample: the range is cut into `strata` slices
    /// of its key (time, or id for the never-active), each slice counted from the index and
    /// sampled from its newest end in proportion, and the estimate carries its margin at 95%.
    /// Within a slice the sample is the newest rows, not a random draw: the margin assumes
    /// the rows of one slice are alike.
    public func size(_ filter: UserFilter, now: Date = Date(), exactUpTo: Int = ActivityLists.exactUpTo,
                     sampleSize: Int = ActivityLists.sampleSize) async throws -> ListSize {
        // The size does not depend on the order: counted on the bucket's own range of the
        // last-active index, never on the whole sign-up index.
        let plan = Plan(ActivityListQuery(filter, sort: .lastActive), now: now)
        let range = try await count(plan)
        guard !plan.rowFilters.isEmpty, range > 0 else { return ListSize(value: range, isEstimate: false) }
        if range <= exactUpTo {
            return ListSize(value: try await matches(plan, upTo: range).matched, isEstimate: false)
        }
        var estimate = 0.0, variance = 0.0
        for slice in try await slices(plan) {
            let size = try await count(slice)
            guard size > 0 else { continue }
            let want = max(1, Int((Double(sampleSize) * Double(size) / Double(range)).rounded(.up)))
            let (read, matched) = try await matches(slice, upTo: min(want, size))
            guard read > 0 else { continue }
            let share = Double(matched) / Double(read)
            estimate += share * Double(size)
            if read < size {
                // Sampling without replacement: the finite population correction.
                variance += Double(size * size) * share * (1 - share) / Double(read) * (1 - Double(read) / Double(size))
            }
        }
        let margin = Int((1.96 * variance.squareRoot()).rounded(.up))
        return ListSize(value: Int(estimate.rounded()), isEstimate: true, margin: margin)
    }

    private func count(_ plan: Plan) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: plan.countSQL, arguments: StatementArguments(plan.arguments)) ?? 0
        }
    }

    /// Reads up to `limit` candidates from the newest end, a chunk at a time; returns how
    /// many were read and how many passed the filters.
    private func matches(_ plan: Plan, upTo limit: Int) async throws -> (read: Int, matched: Int) {
        var cursor: ActivityCursor?
        var read = 0, matched = 0
        while read < limit {
            let want = min(Self.chunkSize, limit - read)
            let (chunk, rows) = try await candidatesAndRows(plan, after: cursor, limit: want)
            read += chunk.count
            matched += rows.count
            guard chunk.count == want, let last = chunk.last else { break }
            cursor = last
        }
        return (read, matched)
    }

    /// The range cut into equal spans of its key, from the index's two ends.
    private func slices(_ plan: Plan) async throws -> [Plan] {
        let bounds = try await database.read { db in
            try Row.fetchOne(db, sql: plan.boundsSQL, arguments: StatementArguments(plan.arguments))
                .map { row in (row["low"] as DatabaseValue, row["high"] as DatabaseValue) }
        }
        guard let (low, high) = bounds else { return [plan] }
        if plan.key == "u.id", let low = Int64.fromDatabaseValue(low), let high = Int64.fromDatabaseValue(high) {
            let spans = Self.spans(Double(low), Double(high))
            return spans.enumerated().map { index, span in
                plan.slice(from: Int64(span.0.rounded(.down)), to: index == spans.count - 1 ? high : Int64(span.1.rounded(.down)),
                           last: index == spans.count - 1)
            }
        }
        guard let lowText = String.fromDatabaseValue(low), let highText = String.fromDatabaseValue(high),
              let lowDate = SQLiteTime.date(lowText), let highDate = SQLiteTime.date(highText)
        else { return [plan] }
        let spans = Self.spans(lowDate.timeIntervalSince1970, highDate.timeIntervalSince1970)
        return spans.enumerated().map { index, span in
            let last = index == spans.count - 1
            // The ends are the stored values themselves, so no row falls outside the slices.
            return plan.slice(from: index == 0 ? lowText : SQLiteTime.string(Date(timeIntervalSince1970: span.0)),
                              to: last ? highText : SQLiteTime.string(Date(timeIntervalSince1970: span.1)), last: last)
        }
    }

    /// `strata` spans from `low` to `high`, each from its start up to the next one's.
    static func spans(_ low: Double, _ high: Double) -> [(Double, Double)] {
        let step = (high - low) / Double(strata)
        guard step > 0 else { return [(low, high)] }
        return (0..<strata).map { index in (low + step * Double(index), low + step * Double(index + 1)) }
    }

    /// One chunk of candidates in order, and those of them that pass the row filters.
    private func candidatesAndRows(_ plan: Plan, after: ActivityCursor?,
                                   limit: Int) async throws -> ([ActivityCursor], [Int64: UserSummary]) {
        try await database.read { db in
            let (sql, arguments) = plan.candidates(after: after, limit: limit)
            let chunk = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                ActivityCursor(key: try row.decode(forColumn: "sort_key"), id: try row.decode(forColumn: "id"))
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
