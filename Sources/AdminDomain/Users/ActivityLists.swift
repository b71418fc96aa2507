import Foundation
import GRDB

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

    /// One page: up to `pageSize` users, reading candidates until the page is full or the
    /// budget is spent.
    /// `budget`: candidates read at most (tests pass a smaller one).
    /// `before`: the page that ends just before that cursor (Previous), read against the
    /// list's order from it and turned round; with fewer than a page before it, the first page.
    public func page(
        _ query: ActivityListQuery, after: ActivityCursor?, before: ActivityCursor? = nil, now: Date = Date(),
        budget: Int = ActivityLists.candidateBudget
    ) async throws -> ActivityPage {
        let plan = QueryPlan(query, now: now)
        if let before, after == nil {
            // The users nearest before the cursor, farthest last; `next` is where reading on
            // backwards would go (past a full page, or where the budget stopped).
            let back = try await walk(plan, from: before, upward: !query.ascending, budget: budget)
            if back.next == nil, back.users.count < Self.pageSize {
                return try await page(query, after: nil, now: now, budget: budget)
            }
            let users = Array(back.users.reversed())
            return ActivityPage(
                users: users, next: users.last.map { Self.cursor(for: $0, plan: plan) } ?? before,
                stoppedOnBudget: back.stoppedOnBudget, candidatesRead: back.candidatesRead, previous: back.next)
        }
        var page = try await walk(plan, from: after, upward: query.ascending, budget: budget)
        if after != nil, let first = page.users.first { page.previous = Self.cursor(for: first, plan: plan) }
        return page
    }

    /// Up to a page of users from `start` in one direction of the index, reading candidates
    /// until the page is full or the budget is spent.
    private func walk(_ plan: QueryPlan, from start: ActivityCursor?, upward: Bool, budget: Int) async throws
        -> ActivityPage
    {
        var cursor = start
        var users: [UserSummary] = []
        var read = 0
        var exhausted = false
        var chunkSize = Self.chunkSize
        while users.count <= Self.pageSize, read < budget, !exhausted {
            let room = Self.pageSize + 1 - users.count
            let want = plan.rowFilters.isEmpty ? room : min(chunkSize, budget - read)
            let (chunk, _, matched) = try await candidatesAndRows(
                plan, after: cursor, limit: want, upward: upward, keeping: room)
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
            return ActivityPage(
                users: users, next: Self.cursor(for: last, plan: plan), stoppedOnBudget: false, candidatesRead: read)
        }
        return ActivityPage(
            users: users, next: exhausted ? nil : cursor, stoppedOnBudget: !exhausted, candidatesRead: read)
    }

    /// Every user of the list, in order, a chunk at a time: memory stays flat however long it is.
    public func forEachChunk(
        _ query: ActivityListQuery, now: Date = Date(),
        _ body: ([UserSummary]) async throws -> Void
    ) async throws {
        let plan = QueryPlan(query, now: now)
        var cursor: ActivityCursor?
        while true {
            let (chunk, _, matched) = try await candidatesAndRows(
                plan, after: cursor, limit: Self.chunkSize, keeping: Self.chunkSize)
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
    public func size(
        _ filter: UserFilter, now: Date = Date(), exactUpTo: Int = ActivityLists.exactUpTo,
        sampleSize: Int = ActivityLists.sampleSize
    ) async throws -> ListSize {
        // The size does not depend on the order: counted on the bucket's own range of the
        // last-active index, never on the whole sign-up index.
        let plan = QueryPlan(ActivityListQuery(filter, sort: .lastActive), now: now)
        let range = try await count(plan)
        guard !plan.rowFilters.isEmpty, range > 0 else { return ListSize(value: range, isEstimate: false) }
        if range <= exactUpTo {
            return ListSize(value: try await matches(plan, upTo: range).matched, isEstimate: false)
        }
        var estimate = 0.0
        var variance = 0.0
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

    private func count(_ plan: QueryPlan) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, SQLRequest(literal: plan.countQuery)) ?? 0
        }
    }

    /// Reads up to `limit` candidates from the newest end, a chunk at a time; returns how
    /// many were read and how many passed the filters.
    private func matches(_ plan: QueryPlan, upTo limit: Int) async throws -> (read: Int, matched: Int) {
        var cursor: ActivityCursor?
        var read = 0
        var matched = 0
        while read < limit {
            let want = min(Self.chunkSize, limit - read)
            let (chunk, matching, _) = try await candidatesAndRows(plan, after: cursor, limit: want, keeping: 0)
            read += chunk.count
            matched += matching
            guard chunk.count == want, let last = chunk.last else { break }
            cursor = last
        }
        return (read, matched)
    }

    /// The range cut into equal spans of its key, from the index's two ends.
    private func slices(_ plan: QueryPlan) async throws -> [QueryPlan] {
        let bounds = try await database.read { db in
            try Row.fetchOne(db, SQLRequest(literal: plan.boundsQuery))
                .map { row in (row["low"] as DatabaseValue, row["high"] as DatabaseValue) }
        }
        guard let (low, high) = bounds else { return [plan] }
        if plan.key == "u.id", let low = Int64.fromDatabaseValue(low), let high = Int64.fromDatabaseValue(high) {
            let spans = Self.spans(Double(low), Double(high))
            return spans.enumerated().map { index, span in
                plan.slice(
                    from: Int64(span.0.rounded(.down)),
                    to: index == spans.count - 1 ? high : Int64(span.1.rounded(.down)),
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
            return plan.slice(
                from: index == 0 ? lowText : SQLiteTime.string(Date(timeIntervalSince1970: span.0)),
                to: last ? highText : SQLiteTime.string(Date(timeIntervalSince1970: span.1)), last: last)
        }
    }

    /// `strata` spans from `low` to `high`, each from its start up to the next one's.
    static func spans(_ low: Double, _ high: Double) -> [(Double, Double)] {
        let step = (high - low) / Double(strata)
        guard step > 0 else { return [(low, high)] }
        return (0..<strata).map { index in (low + step * Double(index), low + step * Double(index + 1)) }
    }

    /// One chunk of candidates in order, how many of them pass the row filters, and the rows
    /// of the first `keeping` that do. Which pass is read as ids alone: a page of 50 from a
    /// chunk of 1,000 decoded 1,000 users, and a size's sample 2,000, a tenth of the server's
    /// time under the load test.
    private func candidatesAndRows(
        _ plan: QueryPlan, after: ActivityCursor?, limit: Int,
        upward: Bool = false, keeping: Int
    ) async throws -> (candidates: [ActivityCursor], matching: Int, rows: [Int64: UserSummary]) {
        try await database.read { db in
            let chunk = try Row.fetchAll(
                db, SQLRequest(literal: plan.candidates(after: after, limit: limit, upward: upward))
            ).map { row in
                ActivityCursor(key: try row.decode(forColumn: "sort_key"), id: try row.decode(forColumn: "id"))
            }
            guard !chunk.isEmpty else { return ([], 0, [:]) }
            let ids = chunk.map(\.id)
            let passing =
                plan.rowFilters.isEmpty
                ? Set(ids) : Set(try Int64.fetchAll(db, SQLRequest(literal: plan.passing(ids: ids))))
            let kept = Array(ids.lazy.filter(passing.contains).prefix(max(0, keeping)))
            guard !kept.isEmpty else { return (chunk, passing.count, [:]) }
            let users = try UserSummary.fetchAll(db, SQLRequest(literal: plan.rows(ids: kept)))
            return (chunk, passing.count, Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) }))
        }
    }

    private static func cursor(for user: UserSummary, plan: QueryPlan) -> ActivityCursor {
        switch plan.key {
        case "u.id": ActivityCursor(key: nil, id: user.id)
        case "u.created_at": ActivityCursor(key: user.createdAt, id: user.id)
        default: ActivityCursor(key: user.lastActiveAt, id: user.id)
        }
    }
}
