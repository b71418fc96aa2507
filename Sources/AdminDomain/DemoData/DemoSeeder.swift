import Foundation
import GRDB

public enum DemoSeedError: Error, CustomStringConvertible, Equatable {
    case alreadyHasUsers(path: String, count: Int)
    case notSQLite(path: String)
    case invalidUserCount

    public var description: String {
        switch self {
        case let .alreadyHasUsers(path, count):
            "refusing to seed \(path): it already has \(count) user(s); pass a new path"
        case let .notSQLite(path): "not an SQLite database: \(path)"
        case .invalidUserCount: "--users must be at least 1"
        }
    }
}

public struct DemoSeedReport: Sendable {
    public var rowsPerTable: [(table: String, rows: Int)]
    public var seconds: Double
    public var totalRows: Int { rowsPerTable.reduce(0) { $0 + $1.rows } }
    public var rowsPerSecond: Double { seconds > 0 ? Double(totalRows) / seconds : 0 }
}

/// Fills a new database with the app's schema and deterministic, realistic (and in places
/// hostile) data. The same seed and the same day give the same database.
public struct DemoSeeder {
    public var userCount: Int
    public var seed: UInt64
    /// Dates are placed around this moment: items expire before and after it.
    public var now: Date
    /// The user who has tracked 20,000 items, present whatever the user count.
    public static let whaleUserID: Int64 = 3
    public static let whaleItemCount = 20_000

    public init(userCount: Int, seed: UInt64 = 1, now: Date = Date()) {
        self.userCount = userCount
        self.seed = seed
        self.now = now
    }

    public func run(path: String, progress: (String) -> Void = { _ in }) throws -> DemoSeedReport {
        guard userCount >= 1 else { throw DemoSeedError.invalidUserCount }
        let started = Date()
        var config = Configuration()
        config.label = "seed"
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
            _ = try queue.inDatabase { db in try db.tableExists("users") }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw DemoSeedError.notSQLite(path: path)
        }
        let (tableSQL, indexSQL) = try AppSchema.statements()
        let userCount = self.userCount, seed = self.seed, clock = SeedClock(now: now)
        let rowCounts = try queue.inDatabase { db -> [(table: String, rows: Int)] in
            let fresh: Bool
            if try db.tableExists("users") {
                if try Int.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users)") == 1 {
                    let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 1
                    throw DemoSeedError.alreadyHasUsers(path: path, count: total)
                }
                fresh = false
            } else {
                fresh = true
                // A new file that nobody else has open: no journal, no fsync until the end.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                for statement in tableSQL { try db.execute(sql: statement) }
            }
            try db.execute(sql: "PRAGMA cache_size = -262144")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")

            var writer = try DemoRowWriter(db: db, seed: seed)
            var lastReport = Date()
            try db.execute(sql: "BEGIN")
            for userID in 1...Int64(userCount) {
                var rng = SeedRandom(seed: seed, stream: UInt64(userID))
                try writer.writeUser(id: userID, totalUsers: Int64(userCount), clock: clock, rng: &rng)
                if userID % 20_000 == 0 {
                    try db.execute(sql: "COMMIT; BEGIN")
                    if Date().timeIntervalSince(lastReport) >= 5 {
                        lastReport = Date()
                        let elapsed = lastReport.timeIntervalSince(started)
                        progress(String(format: "  %d/%d users, %d rows, %.0f rows/s",
                                        userID, userCount, writer.totalRows, Double(writer.totalRows) / elapsed))
                    }
                }
            }
            try db.execute(sql: "COMMIT")
            if fresh {
                // Sorting once beats keeping eight indexes ordered during the load.
                progress("  building indexes")
                for statement in indexSQL { try db.execute(sql: statement) }
            }
            // The backend runs in WAL mode, and so does its demo stand-in.
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            return writer.rowCounts
        }
        return DemoSeedReport(rowsPerTable: rowCounts, seconds: Date().timeIntervalSince(started))
    }
}

/// Day and second arithmetic around `now`, in the backend's text formats.
struct SeedClock {
    let nowSeconds: Int64
    let today: Int64

    init(now: Date) {
        nowSeconds = Int64(now.timeIntervalSince1970)
        today = nowSeconds / 86_400
    }

    func timestamp(_ seconds: Int64) -> String { SQLiteTime.string(secondsSinceEpoch: seconds) }
    func day(_ offsetFromToday: Int) -> String { SQLiteTime.dayString(daysSinceEpoch: today + Int64(offsetFromToday)) }
    func daysAgo(_ days: Double) -> Int64 { nowSeconds - Int64(days * 86_400) }
}
