import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// A user's items paged both ways and searched by name, against rows with known keys:
/// expiry dates far ahead, seven items a day (ties on the sort's date, broken by id), so the
/// expected order is plain SQL's `ORDER BY expiry_date, id`, written here, not the panel's.
@Suite(.timeLimit(.minutes(20))) struct UserItemsPaging {
    static let user: Int64 = 2
    static let other: Int64 = 4
    static let count = 260
    let temp: TemporaryDatabase
    let database: PanelDatabase
    let calendar = UserCalendar(timezone: "UTC", now: TemporaryDatabase.seedNow)

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 12, now: TemporaryDatabase.seedNow)
        try await DatabaseQueue(path: temp.path).write { db in
            // Only the items written here are in use for the user.
            try db.execute(
                sql: "UPDATE food_items SET deleted_at = '2026-01-01 00:00:00' WHERE user_id = ?",
                arguments: [Self.user])
            for index in 0..<Self.count {
                let day = String(format: "2031-%02d-%02d", 1 + index / 7 / 28, 1 + (index / 7) % 28)
                let name = index == 5 ? "100% juice" : index.isMultiple(of: 2) ? "Cheddar \(index)" : "Milk \(index)"
                try db.execute(
                    sql: """
                        INSERT INTO food_items (user_id, name, category, expiry_date, created_at, updated_at)
                        VALUES (?, ?, 'Dairy', ?, '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                        """, arguments: [Self.user, name, day])
            }
            // Another user's cheddar is not this user's.
            try db.execute(
                sql: """
                    INSERT INTO food_items (user_id, name, category, expiry_date, created_at, updated_at)
                    VALUES (?, 'Cheddar of someone else', 'Dairy', '2031-01-01', '2026-01-01 00:00:00',
                      '2026-01-01 00:00:00')
                    """, arguments: [Self.other])
        }
        database = try await PanelDatabase.open(path: temp.path)
    }

    func expected(nameLike: String? = nil) async throws -> [Int64] {
        try await DatabaseQueue(path: temp.path).read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM food_items WHERE user_id = ? AND deleted_at IS NULL AND consumed_at IS NULL
                    AND (? IS NULL OR name LIKE '%' || ? || '%') ORDER BY expiry_date, id
                    """, arguments: [Self.user, nameLike, nameLike])
        }
    }

    /// Forward with Next to the end, then back with Previous to the start: each page the
    /// same both ways, all together exactly the rows SQL orders, with the range and total.
    func walk(_ filter: UserItems.Filter) async throws -> (
        forward: [[Int64]], backward: [[Int64]], offsets: [Int], totals: Set<Int>
    ) {
        let items = UserItems(database: database)
        var forward: [[Int64]] = []
        var offsets: [Int] = []
        var totals: Set<Int> = []
        var page = try await items.page(userID: Self.user, calendar: calendar, filter: filter, at: .first)
        #expect(page.previous == nil, "no Previous on the first page")
        while true {
            forward.append(page.items.map(\.id))
            offsets.append(page.offset)
            totals.insert(page.total)
            guard let next = page.next else { break }
            page = try await items.page(userID: Self.user, calendar: calendar, filter: filter, at: .after(next))
        }
        var backward: [[Int64]] = [page.items.map(\.id)]
        while let previous = page.previous {
            page = try await items.page(userID: Self.user, calendar: calendar, filter: filter, at: .before(previous))
            backward.insert(page.items.map(\.id), at: 0)
        }
        return (forward, backward, offsets, totals)
    }

    @Test func pagesForwardThenBackGiveExactlyTheRowsSQLOrdersWithTies() async throws {
        defer { temp.remove() }
        let expected = try await expected()
        #expect(expected.count == Self.count)
        let walk = try await walk(UserItems.Filter(kind: .food))
        #expect(walk.forward.flatMap { $0 } == expected)
        #expect(walk.backward == walk.forward, "Previous brings back the same pages")
        #expect(walk.forward.map(\.count) == [50, 50, 50, 50, 50, 10])
        #expect(walk.offsets == [0, 50, 100, 150, 200, 250] && walk.totals == [Self.count])
    }

    @Test func aNameSearchFindsWithinTheUserOnlyInAnyASCIICaseAndPagesBothWays() async throws {
        defer { temp.remove() }
        let expected = try await expected(nameLike: "cheddar")
        #expect(expected.count == Self.count / 2)
        let walk = try await walk(UserItems.Filter(kind: .food, name: "cHEDDAR"))
        #expect(walk.forward.flatMap { $0 } == expected, "this user's cheddar only, in order")
        #expect(walk.backward == walk.forward)
        #expect(walk.totals == [expected.count])
        // A wildcard is a character like any other.
        let percent = try await UserItems(database: database).page(
            userID: Self.user, calendar: calendar,
            filter: .init(kind: .food, name: "%"), at: .first)
        #expect(percent.items.map(\.name) == ["100% juice"] && percent.total == 1)
        let none = try await UserItems(database: database).page(
            userID: Self.user, calendar: calendar,
            filter: .init(kind: .food, name: "Gouda"), at: .first)
        #expect(none.items.isEmpty && none.total == 0 && none.next == nil && none.previous == nil)
    }

    /// The search reads the user's rows through their index, never the table.
    @Test func theNameSearchReadsThroughTheUserIndex() async throws {
        defer { temp.remove() }
        for kind in ItemKind.allCases {
            let query = UserItems.orderQuery(
                userID: Self.user, calendar: calendar, filter: .init(kind: kind, name: "x"))
            let plan = try await database.read { db in try queryPlan(db, query) }
            let table = kind == .food ? "food_items" : "documents"
            #expect(plan.contains { $0.contains("SEARCH \(table) USING INDEX \(table)_user (user_id=?)") }, "\(plan)")
            assertNoTableScan(plan)
        }
    }
}
