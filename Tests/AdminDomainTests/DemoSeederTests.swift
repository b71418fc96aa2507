import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct DemoData {
    @Test func theSameSeedAndDayGiveTheSameDatabase() async throws {
        let a = try await TemporaryDatabase.seeded(users: 120, seed: 42, now: TemporaryDatabase.seedNow)
        let b = try await TemporaryDatabase.seeded(users: 120, seed: 42, now: TemporaryDatabase.seedNow)
        let c = try await TemporaryDatabase.seeded(users: 120, seed: 43, now: TemporaryDatabase.seedNow)
        defer { for database in [a, b, c] { database.remove() } }
        #expect(try appTablesDigest(path: a.path) == appTablesDigest(path: b.path))
        #expect(try appTablesDigest(path: a.path) != appTablesDigest(path: c.path))
    }

    @Test func itRefusesADatabaseThatHasUsers() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 10)
        defer { temp.remove() }
        let before = try appTablesDigest(path: temp.path)
        #expect(throws: DemoSeedError.alreadyHasUsers(path: temp.path, count: 10)) {
            try DemoSeeder(userCount: 10).run(path: temp.path)
        }
        #expect(try appTablesDigest(path: temp.path) == before)
    }

    @Test func theSchemaIsTheBackendsAndTheFileIsInWALMode() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 10)
        defer { temp.remove() }
        let reference = try DatabaseQueue()
        try await reference.write { try $0.execute(sql: AppSchema.sql) }
        let query = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        let expected = try reference.read { try Row.fetchAll($0, sql: query) }
        let seeded = try DatabaseQueue(path: temp.path)
        #expect(try seeded.read { try Row.fetchAll($0, sql: query) } == expected)
        await #expect(try seeded.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    /// Issue 36: "upgrades per week" showed 159 in the seed's week against about 10 before.
    /// Subscriptions start at the pace of the year before, none at the seed's moment, every
    /// one after its user's sign-up, and each premium user's current one covers the seed's day.
    @Test func subscriptionsStartAtASteadyPaceWithNoBurstAtTheSeedsMoment() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 3_000, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let queue = try DatabaseQueue(path: temp.path)
        let now = "2026-11-18 11:06:40"  // TemporaryDatabase.seedNow, 1,795,000,000 s
        func count(_ sql: String) throws -> Int {
            try queue.read { try Int.fetchOne($0, sql: sql, arguments: ["now": now])! }
        }
        let lastWeek = try count("SELECT COUNT(*) FROM subscriptions WHERE started_at >= datetime(:now, '-7 days')")
        let yearBefore = try count(
            """
            SELECT COUNT(*) FROM subscriptions WHERE started_at >= datetime(:now, '-371 days')
              AND started_at < datetime(:now, '-7 days')
            """)
        let lastHour = try count("SELECT COUNT(*) FROM subscriptions WHERE started_at > datetime(:now, '-1 hours')")
        let beforeSignUp = try count(
            "SELECT COUNT(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.started_at < u.created_at")
        let premiumUncovered = try count(
            """
            SELECT COUNT(*) FROM users u WHERE u.plan = 'premium' AND NOT EXISTS
            (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.started_at <= :now
              AND s.current_period_end > :now)
            """)
        let weekly = Double(yearBefore) / 52
        #expect(weekly > 2, "the year before has a pace to compare with: \(yearBefore)")
        #expect(Double(lastWeek) < 3 * weekly + 5, "last week \(lastWeek) against \(weekly) a week the year before")
        #expect(
            lastHour == 0 && beforeSignUp == 0 && premiumUncovered == 0,
            "\(lastHour) \(beforeSignUp) \(premiumUncovered)")
    }

    @Test func everyTableIsFilledWithTheCasesSupportMeets() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 1_500, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let queue = try DatabaseQueue(path: temp.path)
        func count(_ sql: String) throws -> Int {
            try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM " + sql)! }
        }
        do {
            for table in AppSchema.tableNames {
                #expect(try count(table) > 0, "\(table) is empty")
            }
            let today = "2026-11-18"
            #expect(try count("food_items WHERE user_id = \(DemoSeeder.whaleUserID)") == DemoSeeder.whaleItemCount)
            #expect(try count("food_items WHERE expiry_date < '\(today)'") > 0)
            #expect(try count("food_items WHERE expiry_date >= '\(today)'") > 0)
            #expect(try count("documents WHERE expiry_date < '\(today)'") > 0)
            #expect(try count("users WHERE last_active_at IS NULL") > 0)
            #expect(try count("users WHERE last_active_at >= '2026-11-17'") > 0)
            #expect(try count("users WHERE last_active_at < '2026-08-01'") > 0)
            #expect(try count("users WHERE display_name LIKE '%<script>%'") > 0)
            #expect(try count("users WHERE timezone NOT LIKE '%/%' AND timezone <> 'UTC'") > 0)
            #expect(try count("users WHERE plan = 'premium'") > 0)
            #expect(try count("users WHERE household_id IS NOT NULL") > 0)
            #expect(try count("notification_settings WHERE quiet_start > quiet_end") > 0)
            #expect(try count("devices WHERE push_token IS NULL") > 0)
            #expect(try count("devices WHERE push_permission = 'granted'") > 0)
            #expect(try count("subscriptions WHERE status = 'active'") > 0)
            #expect(try count("reminders WHERE status = 'sent'") > 0)
        }
    }
}
