import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct ActivityListsByBucket {
    static let now = TemporaryDatabase.seedNow
    let temp: TemporaryDatabase
    let lists: ActivityLists

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 600, now: Self.now)
        // Users sitting exactly on and just beside each boundary.
        let stamps: [(Int64, String?)] = [
            (800_001, SQLiteTime.string(Self.now.addingTimeInterval(-7 * 86_400))),
            (800_002, SQLiteTime.string(Self.now.addingTimeInterval(-7 * 86_400 - 1))),
            (800_003, SQLiteTime.string(Self.now.addingTimeInterval(-30 * 86_400))),
            (800_004, SQLiteTime.string(Self.now.addingTimeInterval(-30 * 86_400 - 1))),
            (800_005, nil),
            // Clocks far off, and text that is no time: in no bucket.
            (800_006, SQLiteTime.string(Self.now.addingTimeInterval(86_400 - 1))),
            (800_007, SQLiteTime.string(Self.now.addingTimeInterval(86_400))),
            (800_008, "2031-05-05 10:00:00"),
            (800_009, "yesterday"),
            (800_010, "2026-13-45 99:99:99"),
        ]
        try await DatabaseQueue(path: temp.path).write { db in
            for (id, stamp) in stamps { try insertUser(db, id: id, email: "edge\(id)@edge.test", lastActive: stamp) }
        }
        lists = ActivityLists(database: try await PanelDatabase.open(path: temp.path))
    }

    /// Every page of a list, in order.
    func walk(_ query: ActivityListQuery) async throws -> [UserSummary] {
        var users: [UserSummary] = []
        var after: ActivityCursor?
        repeat {
            let page = try await lists.page(query, after: after, now: Self.now)
            users += page.users
            after = page.next
        } while after != nil
        return users
    }

    static let directSQL: [ActivityBucket: String] = [
        .active: "last_active_at >= datetime(:now, '-7 days') AND last_active_at < datetime(:now, '+1 day')",
        .idle: "last_active_at >= datetime(:now, '-30 days') AND last_active_at < datetime(:now, '-7 days')",
        .inactive: "last_active_at < datetime(:now, '-30 days')",
        .never: "last_active_at IS NULL",
    ]

    /// A last activity a day or more ahead, or no time at all, is in none of the lists; one
    /// just under a day ahead is active.
    @Test func farOffAndUnreadableLastActivitiesAreInNoList() async throws {
        defer { temp.remove() }
        var listed: [Int64: ActivityBucket] = [:]
        for bucket in ActivityBucket.allCases {
            for user in try await walk(ActivityListQuery(UserFilter(bucket: bucket))) { listed[user.id] = bucket }
        }
        #expect(listed[800_006] == .active)
        for id: Int64 in [800_007, 800_008, 800_009, 800_010] { #expect(listed[id] == nil, "\(id)") }
    }

    @Test(arguments: ActivityBucket.allCases)
    func bucketsMatchDirectSQLAtTheirBoundaries(bucket: ActivityBucket) async throws {
        defer { temp.remove() }
        let walked = try await walk(ActivityListQuery(UserFilter(bucket: bucket)))
        let order = bucket == .never ? "id DESC" : "last_active_at DESC, id DESC"
        let direct = try await DatabaseQueue(path: temp.path).read { db in
            // One definition of a user: deleted accounts are out unless a filter asks for them.
            try Int64.fetchAll(
                db,
                sql: "SELECT id FROM users WHERE \(Self.directSQL[bucket]!) AND status <> 'deleted' ORDER BY \(order)",
                arguments: ["now": SQLiteTime.string(Self.now)])
        }
        #expect(walked.map(\.id) == direct, "pages in order, no duplicates, no gaps")
        #expect(Set(walked.map(\.id)).count == walked.count)
        let size = try await lists.size(UserFilter(bucket: bucket), now: Self.now)
        #expect(size == ListSize(value: direct.count, isEstimate: false))
        let edges = Set(walked.map(\.id)).intersection(800_001...800_005)
        let expected: Set<Int64> =
            switch bucket {
            case .active: [800_001]
            case .idle: [800_002, 800_003]
            case .inactive: [800_004]
            case .never: [800_005]
            }
        #expect(edges == expected)
    }

    @Test func filtersAndSignUpOrderMatchDirectSQL() async throws {
        defer { temp.remove() }
        let filter = ActivityListQuery(
            UserFilter(
                bucket: .inactive, plan: .free, status: .active, platform: .android,
                signedUp: DayRange(from: Day("2024-01-01"), to: Day("2026-06-30"))), sort: .signUp)
        let walked = try await walk(filter)
        let direct = try await DatabaseQueue(path: temp.path).read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM users u WHERE \(Self.directSQL[.inactive]!) AND plan = 'free' AND status = 'active'
                      AND created_at >= '2024-01-01' AND created_at < '2026-07-01'
                      AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.platform = 'android')
                    ORDER BY created_at DESC, id DESC
                    """, arguments: ["now": SQLiteTime.string(Self.now)])
        }
        #expect(!direct.isEmpty)
        #expect(walked.map(\.id) == direct)
        // Below the sampling budget the size is exact, and the order does not change it.
        #expect(try await lists.size(filter.filter, now: Self.now) == ListSize(value: direct.count, isEstimate: false))
        var byLastActive = filter
        byLastActive.sort = .lastActive
        #expect(
            try await lists.size(byLastActive.filter, now: Self.now) == ListSize(value: direct.count, isEstimate: false)
        )
    }

    /// A filtered list once said "About 1,040" while its export held 859 rows: an estimate
    /// now samples across the whole bucket and carries its margin; deleted accounts appear
    /// only when asked for.
    @Test func anEstimateSamplesTheWholeBucketAndCarriesItsMargin() async throws {
        defer { temp.remove() }
        let filter = UserFilter(bucket: .inactive, plan: .free)
        let direct = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM users WHERE \(Self.directSQL[.inactive]!) "
                    + "AND plan = 'free' AND status <> 'deleted'",
                arguments: ["now": SQLiteTime.string(Self.now)]) ?? 0
        }
        #expect(
            try await lists.size(filter, now: Self.now) == ListSize(value: direct, isEstimate: false),
            "small enough to count")
        let estimate = try await lists.size(filter, now: Self.now, exactUpTo: 60, sampleSize: 60)
        let margin = try #require(estimate.margin)
        #expect(estimate.isEstimate && margin > 0)
        #expect(abs(estimate.value - direct) <= margin, "\(estimate) against \(direct)")
        let deleted = try await lists.size(UserFilter(bucket: .inactive, status: .deleted), now: Self.now)
        let directDeleted = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM users WHERE \(Self.directSQL[.inactive]!) AND status = 'deleted'",
                arguments: ["now": SQLiteTime.string(Self.now)]) ?? 0
        }
        #expect(deleted.value == directDeleted && directDeleted > 0)
    }

    @Test func exportGoesThroughEveryRowInOrder() async throws {
        defer { temp.remove() }
        var exported: [Int64] = []
        try await lists.forEachChunk(ActivityListQuery(UserFilter(bucket: .inactive)), now: Self.now) {
            exported += $0.map(\.id)
        }
        #expect(exported == (try await walk(ActivityListQuery(UserFilter(bucket: .inactive)))).map(\.id))
    }

    /// Every activity list query reads an index of `users`.
    @Test(arguments: [
        ActivityListQuery(UserFilter(bucket: .active)),
        ActivityListQuery(UserFilter(bucket: .idle, plan: .premium), sort: .signUp),
        ActivityListQuery(UserFilter(bucket: .inactive, platform: .ios, signedUp: DayRange(from: Day("2025-01-01")))),
        ActivityListQuery(UserFilter(bucket: .never, status: .suspended, signedUp: DayRange(to: Day("2026-01-01")))),
    ])
    func listQueriesUseIndexes(filter: ActivityListQuery) async throws {
        defer { temp.remove() }
        let plan = ActivityLists.QueryPlan(filter, now: Self.now)
        let candidates = plan.candidates(after: ActivityCursor(key: "2026-01-01 00:00:00", id: 10), limit: 51)
        let rows = plan.rows(ids: [1, 2, 3])
        try await DatabaseQueue(path: temp.path).read { db in
            let first = try queryPlan(db, candidates)
            #expect(
                first.contains { $0.contains("USING COVERING INDEX users_") || $0.contains("USING INDEX users_") },
                "\(first)")
            assertNoTableScan(first)
            let second = try queryPlan(db, rows)
            #expect(second.contains { $0.contains("USING INTEGER PRIMARY KEY") }, "\(second)")
            assertNoTableScan(second)
            // The size counts one range of the last-active index, whatever the order.
            var unsorted = filter
            unsorted.sort = .lastActive
            let count = ActivityLists.QueryPlan(unsorted, now: Self.now)
            let third = try queryPlan(db, count.countQuery)
            #expect(
                third.contains { $0.contains("USING COVERING INDEX users_last_active_at (last_active_at") }, "\(third)")
            // Both ways (oldest first, and Previous) the order's own index, with no sort.
            let index =
                filter.ordersBySignUp && filter.filter.bucket != .never ? "users_created_at" : "users_last_active_at"
            for upward in [false, true] {
                let walk = try queryPlan(
                    db,
                    plan.candidates(
                        after: ActivityCursor(key: "2026-01-01 00:00:00", id: 10), limit: 51, upward: upward))
                #expect(
                    walk.contains { $0.contains("INDEX \(index)") } && !walk.contains { $0.contains("TEMP B-TREE") },
                    "\(walk)")
            }
        }
    }
}

extension ActivityListQuery: CustomTestStringConvertible {
    public var testDescription: String { "\(filter.bucket.rawValue) \(sort.rawValue)" }
}

/// A filter that matches few of the newest candidates: its pages read on by the index until
/// they are full, or say they stopped on their budget; never an empty page for no reason.
@Suite(.timeLimit(.minutes(20))) struct SparseActivityLists {
    static let now = TemporaryDatabase.seedNow
    let temp: TemporaryDatabase
    let lists: ActivityLists

    /// 12,000 free users active a minute ago, then 60 premium users active two minutes ago:
    /// the first 10,000 candidates of the active list (the old budget) match no premium filter.
    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 300, now: Self.now)
        let recent = SQLiteTime.string(Self.now.addingTimeInterval(-60))
        let earlier = SQLiteTime.string(Self.now.addingTimeInterval(-120))
        try await DatabaseQueue(path: temp.path).write { db in
            try SparseActivityRows.insert(into: db, freeActiveAt: recent, premiumActiveAt: earlier)
        }
        lists = ActivityLists(database: try await PanelDatabase.open(path: temp.path))
    }

    static let query = ActivityListQuery(UserFilter(bucket: .active, plan: .premium))

    /// The list by plain SQL, in the list's order.
    func direct(limit: Int = -1) async throws -> [Int64] {
        try await DatabaseQueue(path: temp.path).read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM users WHERE last_active_at >= datetime(:now, '-7 days') AND plan = 'premium'
                      AND status <> 'deleted'
                    ORDER BY last_active_at DESC, id DESC LIMIT :limit
                    """, arguments: ["now": SQLiteTime.string(Self.now), "limit": limit])
        }
    }

    @Test func aPageThatWouldHaveBeenEmptyIsFull() async throws {
        defer { temp.remove() }
        let premiumInOldBudget = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM (SELECT plan FROM users WHERE last_active_at >= datetime(?, '-7 days')
                                          ORDER BY last_active_at DESC, id DESC LIMIT 10000) WHERE plan = 'premium'
                    """, arguments: [SQLiteTime.string(Self.now)])
        }
        #expect(premiumInOldBudget == 0, "the first page once read these 10,000 and showed none")
        let page = try await lists.page(Self.query, after: nil, now: Self.now)
        #expect(page.users.map(\.id) == (try await direct(limit: ActivityLists.pageSize)))
        #expect(page.users.count == ActivityLists.pageSize && !page.stoppedOnBudget && page.next != nil)
    }

    /// On a smaller budget the first page stops empty, says so, and its Next link goes on
    /// from where it stopped: walked to the end, the pages hold the list once, in order.
    @Test func aPageStoppedOnItsBudgetSaysSoAndTheNextGoesOn() async throws {
        defer { temp.remove() }
        let first = try await lists.page(Self.query, after: nil, now: Self.now, budget: 5_000)
        #expect(first.users.isEmpty && first.stoppedOnBudget && first.next != nil && first.candidatesRead == 5_000)
        var walked: [Int64] = []
        var after: ActivityCursor?
        repeat {
            let page = try await lists.page(Self.query, after: after, now: Self.now, budget: 5_000)
            walked += page.users.map(\.id)
            after = page.next
        } while after != nil
        #expect(walked == (try await direct()))
    }
}
