import Foundation
import GRDB

/// The dashboard's numbers. Accounts with status 'deleted' are not users any more and
/// are left out of every figure; suspended accounts still count.
public struct DashboardStats: Sendable, Equatable {
    public var totalUsers: Int
    public var suspendedUsers: Int
    public var premiumUsers: Int
    /// last_active_at within the 7 days before `computedAt`.
    public var activeUsers7Days: Int
    /// Food items and documents whose deleted_at is NULL (consumed food still counts).
    public var foodItems: Int
    public var documents: Int
    /// Sign-ups per UTC day for the last 30 days, oldest first, days without any included.
    public var signUpsPerDay: [DayCount]
    public var computedAt: Date
    /// Users (not deleted) in each activity bucket at `computedAt`, by the activity lists'
    /// own conditions: the dashboard and the lists use one definition.
    public var usersByActivity: [ActivityBucket: Int] = [:]

    public var itemsTracked: Int { foodItems + documents }

    /// nil when there are no users, rather than a division by zero.
    public var premiumConversion: Double? {
        totalUsers == 0 ? nil : Double(premiumUsers) / Double(totalUsers)
    }
}

public struct DayCount: Sendable, Equatable {
    public var day: String
    public var count: Int
}

extension DashboardStats {
    /// Rows per read. Each chunk is its own short read transaction, so the computation
    /// never pins a WAL snapshot (and blocks the backend's checkpoints) for long.
    public static let defaultChunkSize: Int64 = 50_000

    /// Walks the big tables by rowid range, never with a whole-table COUNT(*) in one read.
    public static func compute(database: PanelDatabase, now: Date = Date(),
                               chunkSize: Int64 = defaultChunkSize) async throws -> DashboardStats {
        var stats = DashboardStats(totalUsers: 0, suspendedUsers: 0, premiumUsers: 0, activeUsers7Days: 0,
                                   foodItems: 0, documents: 0, signUpsPerDay: [], computedAt: now)

        let buckets = ActivityBucket.allCases.map { $0.condition(now: now) }
        var arguments: [String: String] = ["deleted": AccountStatus.deleted.rawValue,
                                           "suspended": AccountStatus.suspended.rawValue, "premium": Plan.premium.rawValue]
        for bucket in buckets {
            for (name, value) in bucket.arguments { arguments[name] = String.fromDatabaseValue(value) }
        }
        let users = try await sumOverChunks(
            of: "users", database: database, chunkSize: chunkSize,
            sql: """
            SELECT COUNT(*) FILTER (WHERE status <> :deleted),
                   COUNT(*) FILTER (WHERE status = :suspended),
                   COUNT(*) FILTER (WHERE status <> :deleted AND plan = :premium)
                   \(buckets.map { ", COUNT(*) FILTER (WHERE status <> :deleted AND \($0.sql))" }.joined())
            FROM users u WHERE id > :low AND id <= :high
            """,
            columns: 3 + buckets.count, arguments: arguments)
        stats.totalUsers = users[0]
        stats.suspendedUsers = users[1]
        stats.premiumUsers = users[2]
        for (index, bucket) in ActivityBucket.allCases.enumerated() { stats.usersByActivity[bucket] = users[3 + index] }
        stats.activeUsers7Days = stats.usersByActivity[.active] ?? 0
        stats.foodItems = try await sumOverChunks(
            of: "food_items", database: database, chunkSize: chunkSize,
            sql: "SELECT COUNT(*) FROM food_items WHERE id > :low AND id <= :high AND deleted_at IS NULL")[0]
        stats.documents = try await sumOverChunks(
            of: "documents", database: database, chunkSize: chunkSize,
            sql: "SELECT COUNT(*) FROM documents WHERE id > :low AND id <= :high AND deleted_at IS NULL")[0]
        stats.signUpsPerDay = try await signUps(database: database, days: 30, now: now)
        return stats
    }

    /// An index range on users(created_at): a month of sign-ups, not the whole table.
    static func signUps(database: PanelDatabase, days: Int, now: Date) async throws -> [DayCount] {
        let today = Int64((now.timeIntervalSince1970 / 86_400).rounded(.down))
        let firstDay = today - Int64(days - 1)
        let counted = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                SELECT substr(created_at, 1, 10) AS day, COUNT(*) FROM users
                WHERE created_at >= ? AND status <> ? GROUP BY day
                """,
                arguments: [SQLiteTime.dayString(daysSinceEpoch: firstDay), AccountStatus.deleted]
            ).map { row in (row[0] as String, row[1] as Int) }
        }
        var byDay: [String: Int] = [:]
        for (day, count) in counted { byDay[day] = count }
        return (firstDay...today).map { day in
            let label = SQLiteTime.dayString(daysSinceEpoch: day)
            return DayCount(day: label, count: byDay[label] ?? 0)
        }
    }

    /// Runs `sql` (a one-row SELECT of `columns` counts, bounded by `:low` and `:high` on the
    /// rowid) once per chunk and adds the columns up.
    private static func sumOverChunks(
        of table: String, database: PanelDatabase, chunkSize: Int64,
        sql: String, columns: Int = 1, arguments: [String: String] = [:]
    ) async throws -> [Int] {
        // MIN and MAX of the rowid are single b-tree seeks.
        let bounds = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT MIN(rowid), MAX(rowid) FROM \(table)")
                .map { row in (row[0] as Int64?, row[1] as Int64?) }
        }
        var totals = [Int](repeating: 0, count: columns)
        guard let bounds, let first = bounds.0, let last = bounds.1 else { return totals }
        var low = first - 1
        while low < last {
            let high = min(low + chunkSize, last)
            let values = try await database.read { [low] db in
                var chunkArguments = StatementArguments(arguments)
                _ = chunkArguments.append(contentsOf: ["low": low, "high": high])
                return try Row.fetchOne(db, sql: sql, arguments: chunkArguments)
                    .map { row in (0..<row.count).map { row[$0] as Int } } ?? []
            }
            for (index, value) in values.prefix(columns).enumerated() { totals[index] += value }
            low = high
        }
        return totals
    }
}
