import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct ExpiryInTheUsersTimezone {
    /// 2026-11-18 23:30 UTC: already the 19th in Tokyo, still the 18th in Los Angeles.
    static let now = Date(timeIntervalSince1970: 1_795_044_600)

    @Test func todayFollowsTheTimezone() {
        #expect(UserCalendar(timezone: "UTC", now: Self.now).todayString == "2026-11-18")
        #expect(UserCalendar(timezone: "Asia/Tokyo", now: Self.now).todayString == "2026-11-19")
        #expect(UserCalendar(timezone: "America/Los_Angeles", now: Self.now).todayString == "2026-11-18")
    }

    @Test func theStatusRuleAtTheDayBoundaryInTwoTimezones() {
        let tokyo = UserCalendar(timezone: "Asia/Tokyo", now: Self.now)
        let losAngeles = UserCalendar(timezone: "America/Los_Angeles", now: Self.now)
        // Expiring on the 18th: gone in Tokyo, today's last day in Los Angeles.
        #expect(tokyo.status(of: "2026-11-18") == .expired && tokyo.daysRemaining(until: "2026-11-18") == -1)
        #expect(
            losAngeles.status(of: "2026-11-18") == .expiringSoon && losAngeles.daysRemaining(until: "2026-11-18") == 0)
        // Thirty days ahead is still soon; thirty-one is safe.
        #expect(tokyo.status(of: "2026-12-19") == .expiringSoon && tokyo.status(of: "2026-12-20") == .safe)
        #expect(losAngeles.status(of: "2026-12-18") == .expiringSoon && losAngeles.status(of: "2026-12-19") == .safe)
        #expect(losAngeles.status(of: "2026-02-30") == nil, "not a date")
    }

    @Test(arguments: [
        "Mars/Olympus_Mons", "", "UTC+25", "Europe/Lisbon ", "<b>tz</b>", "GMT+99", "EST",
        String(repeating: "A/", count: 100),
    ])
    func anInvalidTimezoneIsUTCAndFlagged(name: String) {
        let calendar = UserCalendar(timezone: name, now: Self.now)
        #expect(!calendar.isValidTimezone)
        #expect(calendar.todayString == "2026-11-18")
    }

    /// IANA names that Foundation's list of known names leaves out (links such as
    /// Asia/Kolkata, the tryout's most common zone) are timezones all the same.
    @Test(arguments: ["Asia/Kolkata", "Europe/Kiev", "America/Buenos_Aires", "UTC", "Etc/GMT+5"])
    func aLinkedIANANameIsAValidTimezone(name: String) {
        #expect(UserCalendar(timezone: name, now: Self.now).isValidTimezone)
    }

    @Test func tokensAndDocumentNumbersShowOnlyTheirEnd() {
        #expect(Masked.tail("fcm:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx", keep: 6) == "•••-1RYqx")
        #expect(Masked.tail("P1234567", keep: 3) == "•••567")
        #expect(Masked.tail("AB", keep: 3) == "•••", "a value no longer than what is kept shows nothing")
        #expect(Masked.tail(nil, keep: 3) == nil && Masked.tail("", keep: 3) == nil)
    }
}

@Suite(.timeLimit(.minutes(20))) struct ProfileAndItems {
    let temp: TemporaryDatabase
    let database: PanelDatabase

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 40, now: TemporaryDatabase.seedNow)
        database = try await PanelDatabase.open(path: temp.path)
    }

    @Test func theWhaleHas20000FoodItemsCountedByStatusAndPagedWithoutGaps() async throws {
        defer { temp.remove() }
        let profile = try #require(
            try await UserProfile.load(id: DemoSeeder.whaleUserID, database: database, now: TemporaryDatabase.seedNow))
        let direct = try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM food_items WHERE user_id = ? AND deleted_at IS NULL",
                arguments: [DemoSeeder.whaleUserID]) ?? 0
        }
        #expect(profile.food.total == direct && direct > 18_000, "20,000 less the 5% the seed deletes")
        // Expired, walked page by page, matches the direct count of that status.
        let items = UserItems(database: database)
        var seen = Set<Int64>()
        var after: UserItems.Cursor?
        var previous = "9999-12-31"
        repeat {
            let page = try await items.page(
                userID: DemoSeeder.whaleUserID, calendar: profile.calendar,
                filter: .init(kind: .food, state: .expired), after: after)
            for item in page.items {
                #expect(item.state == .expired && (item.daysRemaining ?? 0) < 0)
                #expect(item.expiryDate <= previous, "the most recently expired first")
                previous = item.expiryDate
                #expect(seen.insert(item.id).inserted, "no duplicates")
            }
            after = page.next
        } while after != nil
        #expect(seen.count == profile.food.expired)
    }

    /// The first page once opened on items consumed in January 2025 at "-665 days left":
    /// by default it lists what is still in use, nearest to today first.
    @Test func theDefaultListIsItemsInUseNearestToTodayFirst() async throws {
        defer { temp.remove() }
        let profile = try #require(
            try await UserProfile.load(id: DemoSeeder.whaleUserID, database: database, now: TemporaryDatabase.seedNow))
        let items = UserItems(database: database)
        var walked: [UserItems.Item] = []
        var after: UserItems.Cursor?
        for _ in 0..<4 {
            let page = try await items.page(
                userID: DemoSeeder.whaleUserID, calendar: profile.calendar, filter: .init(kind: .food), after: after)
            walked += page.items
            after = page.next
        }
        #expect(walked.count == 4 * UserItems.pageSize && Set(walked.map(\.id)).count == walked.count)
        #expect(walked.allSatisfy { $0.state != .consumed }, "consumed items only when asked for")
        let distances = walked.map { abs($0.daysRemaining ?? 999_999) }
        #expect(distances == distances.sorted(), "nearest to today first")
        #expect((distances.first ?? 99) <= 1)
        let consumed = try await items.page(
            userID: DemoSeeder.whaleUserID, calendar: profile.calendar,
            filter: .init(kind: .food, state: .consumed), after: nil)
        #expect(!consumed.items.isEmpty && consumed.items.allSatisfy { $0.state == .consumed })
    }

    /// The 20,000-item user's order and counts are kept a minute: the same pages, read again.
    @Test func aHeavyUsersOrderAndCountsAreKeptAndGiveTheSamePages() async throws {
        defer { temp.remove() }
        let cache = HeavyUserCache()
        let now = TemporaryDatabase.seedNow
        let fresh = try #require(try await UserProfile.load(id: DemoSeeder.whaleUserID, database: database, now: now))
        let first = try #require(
            try await UserProfile.load(id: DemoSeeder.whaleUserID, database: database, now: now, cache: cache))
        let kept = try #require(
            try await UserProfile.load(id: DemoSeeder.whaleUserID, database: database, now: now, cache: cache))
        #expect(first.food == fresh.food && kept.food == fresh.food && kept.documents == fresh.documents)
        let plain = UserItems(database: database)
        let cached = UserItems(database: database, cache: cache)
        var after: UserItems.Cursor?
        var afterCached: UserItems.Cursor?
        for _ in 0..<3 {
            let page = try await plain.page(
                userID: DemoSeeder.whaleUserID, calendar: fresh.calendar, filter: .init(kind: .food), after: after,
                now: now)
            let again = try await cached.page(
                userID: DemoSeeder.whaleUserID, calendar: fresh.calendar, filter: .init(kind: .food),
                after: afterCached, now: now)
            #expect(page.items == again.items && page.next == again.next)
            (after, afterCached) = (page.next, again.next)
        }
        #expect(
            await cache.order(
                .init(userID: DemoSeeder.whaleUserID, filter: .init(kind: .food), today: fresh.calendar.today), now: now
            ) != nil)
        #expect(
            await cache.order(
                .init(userID: DemoSeeder.whaleUserID, filter: .init(kind: .food), today: fresh.calendar.today),
                now: now.addingTimeInterval(61)) == nil, "a minute at most")
    }

    @Test func documentsShowMaskedNumbersAndFiltersNarrow() async throws {
        defer { temp.remove() }
        let profile = try #require(
            try await UserProfile.load(id: DemoSeeder.whaleUserID, database: database, now: TemporaryDatabase.seedNow))
        let page = try await UserItems(database: database).page(
            userID: DemoSeeder.whaleUserID, calendar: profile.calendar,
            filter: .init(kind: .document), after: nil)
        #expect(!page.items.isEmpty)
        let numbers = try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT number FROM documents WHERE user_id = ? AND number IS NOT NULL",
                arguments: [DemoSeeder.whaleUserID])
        }
        for item in page.items {
            if let masked = item.maskedNumber {
                #expect(masked.hasPrefix("•••") && masked.count <= 6)
                #expect(!numbers.contains { $0.count > 3 && masked.contains($0) })
            }
        }
        let dairy = try await UserItems(database: database).page(
            userID: DemoSeeder.whaleUserID, calendar: profile.calendar,
            filter: .init(kind: .food, category: "Dairy", storage: "Refrigerator"), after: nil)
        #expect(dairy.items.allSatisfy { $0.category == "Dairy" && $0.storage == "Refrigerator" })
    }

    @Test func devicesShowTheLastSixCharactersOfTheToken() async throws {
        defer { temp.remove() }
        let owner = try await database.read { db -> (userID: Int64, token: String)? in
            try Row.fetchOne(db, sql: "SELECT user_id, push_token FROM devices WHERE push_token IS NOT NULL LIMIT 1")
                .map { ($0["user_id"], $0["push_token"]) }
        }
        let (userID, token) = try #require(owner)
        let profile = try #require(try await UserProfile.load(id: userID, database: database))
        #expect(profile.devices.contains { $0.maskedToken == "•••" + token.suffix(6) })
        #expect(profile.devices.allSatisfy { ($0.maskedToken ?? "").count <= 9 })
    }

    @Test func anUnknownUserHasNoProfile() async throws {
        defer { temp.remove() }
        #expect(try await UserProfile.load(id: 987_654_321, database: database) == nil)
    }

    /// The profile's and items' queries all read through an index.
    @Test func profileQueriesUseIndexes() async throws {
        defer { temp.remove() }
        let calendar = UserCalendar(timezone: "UTC")
        var plans: [[String]] = []
        for filter in [
            UserItems.Filter(kind: .food, state: .expired, category: "Dairy", storage: "Pantry"),
            UserItems.Filter(kind: .document, state: .safe),
        ] {
            let order = UserItems.orderQuery(userID: 3, calendar: calendar, filter: filter)
            plans.append(try await database.read { db in try queryPlan(db, order) })
            let rows = UserItems.rowsQuery(kind: filter.kind, ids: [1, 2, 3])
            let byID = try await database.read { db in try queryPlan(db, rows) }
            #expect(byID.contains { $0.contains("USING INTEGER PRIMARY KEY") }, "\(byID)")
        }
        #expect(plans[0].contains { $0.contains("food_items USING INDEX food_items_user (user_id=?)") }, "\(plans[0])")
        #expect(plans[1].contains { $0.contains("documents USING INDEX documents_user (user_id=?)") }, "\(plans[1])")
        for plan in plans { assertNoTableScan(plan) }
    }
}
