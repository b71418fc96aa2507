@testable import AdminDomain
import DemoData
import Foundation
import GRDB
import Testing
import TestSupport

@Suite struct DashboardNumbers {
    @Test(arguments: [97 as Int64, DashboardStats.defaultChunkSize])
    func statsEqualDirectSQL(chunkSize: Int64) async throws {
        let temp = try TemporaryDatabase.seeded(users: 600)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let now = Date()
        let stats = try await DashboardStats.compute(database: database, now: now, chunkSize: chunkSize)

        let expected = try await DatabaseQueue(path: temp.path).read { db in
            let since = SQLiteTime.string(now.addingTimeInterval(-7 * 86_400))
            return (
                total: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status <> 'deleted'")!,
                active: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND last_active_at >= ?", arguments: [since])!,
                items: try Int.fetchOne(db, sql: """
                    SELECT (SELECT COUNT(*) FROM food_items WHERE deleted_at IS NULL) + (SELECT COUNT(*) FROM documents WHERE deleted_at IS NULL)
                    """)!,
                premium: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE status <> 'deleted' AND plan = 'premium'")!
            )
        }
        #expect(stats.totalUsers == expected.total)
        #expect(stats.activeUsers7Days == expected.active)
        #expect(stats.itemsTracked == expected.items)
        #expect(stats.premiumUsers == expected.premium)
        #expect(stats.premiumConversion == Double(expected.premium) / Double(expected.total))
        #expect(stats.totalUsers > 0 && stats.activeUsers7Days > 0 && stats.premiumUsers > 0)
        #expect(stats.itemsTracked > DemoSeeder.whaleItemCount)
        #expect(stats.signUpsPerDay.count == 30)
    }

    @Test func anEmptyDatabaseHasNoConversionRate() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        try await DatabaseQueue(path: temp.path).write { db in
            for statement in try AppSchema.statements().tables { try db.execute(sql: statement) }
        }
        let stats = try await DashboardStats.compute(database: await PanelDatabase.open(path: temp.path))
        #expect(stats.totalUsers == 0 && stats.itemsTracked == 0)
        #expect(stats.premiumConversion == nil)
    }

    @Test func theCacheServesStoredNumbersUntilTheyAge() async throws {
        let temp = try TemporaryDatabase.seeded(users: 30)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let cache = DashboardStatsCache(database: database, maxAge: 3600)
        let first = try await cache.stats()
        let second = try await cache.stats()
        #expect(first.computedAt == second.computedAt)
    }
}
