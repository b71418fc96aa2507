import AdminDomain
import Foundation
import GRDB

public enum DemoSeedError: Error, CustomStringConvertible, Equatable {
    case alreadyHasUsers(path: String, count: Int)
    case notSQLite(path: String)
    case invalidUserCount
    case invalidShape(String)

    public var description: String {
        switch self {
        case .alreadyHasUsers(let path, let count):
            "refusing to seed \(path): it already has \(count) user(s); pass a new path"
        case .notSQLite(let path): "not an SQLite database: \(path)"
        case .invalidUserCount: "--users must be at least 1"
        case .invalidShape(let sentence): sentence
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
    public var shape: DemoShape
    /// Dates are placed around this moment: items expire before and after it.
    public var now: Date
    /// The user who has tracked 20,000 items, present whatever the user count.
    public static let whaleUserID: Int64 = 3
    public static let whaleItemCount = 20_000

    public init(userCount: Int, seed: UInt64 = 1, shape: DemoShape = .seeder, now: Date = Date()) {
        self.userCount = userCount
        self.seed = seed
        self.shape = shape
        self.now = now
    }

    public func run(path: String, progress: (String) -> Void = { _ in }) throws -> DemoSeedReport {
        guard userCount >= 1 else { throw DemoSeedError.invalidUserCount }
        if let problem = shape.problem { throw DemoSeedError.invalidShape(problem) }
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
                try Self.createSchema(db, tableSQL: tableSQL, indexSQL: indexSQL)
            }
            let rowCounts = try load(db, started: started, progress: progress)
            progress(String(format: "  loaded in %.1f s", Date().timeIntervalSince(started)))
            if fresh {
                try Self.buildRemainingIndexes(db, indexSQL: indexSQL, progress: progress)
            }
            // The backend runs in WAL mode, and so does its demo stand-in.
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            return rowCounts
        }
        return DemoSeedReport(rowsPerTable: rowCounts, seconds: Date().timeIntervalSince(started))
    }

    /// A new file that nobody else has open: no journal and no fsync until the end.
    private static func createSchema(_ db: Database, tableSQL: [String], indexSQL: [String]) throws {
        // Bigger pages: fewer b-tree splits in the load and faster sorts (about 10% in all).
        try db.execute(sql: "PRAGMA page_size = 16384")
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = OFF")
        try db.execute(sql: "PRAGMA synchronous = OFF")
        for statement in tableSQL { try db.execute(sql: statement) }
        // Rows arrive in user order, so indexes that lead with the user (or the sign-up
        // time) grow at their right edge: cheap to keep during the load.
        for statement in indexSQL where growsInLoadOrder(statement) { try db.execute(sql: statement) }
    }

    /// Two cores: this thread runs SQLite while another generates the rows.
    private func load(_ db: Database, started: Date, progress: (String) -> Void) throws -> [(table: String, rows: Int)]
    {
        try db.execute(sql: "PRAGMA cache_size = -262144")
        func nextID(_ table: String) throws -> Int64 {
            (try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM \(table)") ?? 0) + 1
        }
        let firstIDs = (
            devices: try nextID("devices"), food: try nextID("food_items"), documents: try nextID("documents")
        )
        let channel = BatchChannel(capacity: 4)
        let userCount = Int64(self.userCount)
        let seed = self.seed
        let shape = self.shape
        let clock = SeedClock(now: now)
        Thread.detachNewThread {
            var writer = DemoRowWriter(
                seed: seed, shape: shape, nextDeviceID: firstIDs.devices, nextFoodID: firstIDs.food,
                nextDocumentID: firstIDs.documents)
            for userID in 1...userCount {
                var rng = SeedRandom(seed: seed, stream: UInt64(userID))
                writer.writeUser(id: userID, totalUsers: userCount, clock: clock, rng: &rng)
                if userID % Self.usersPerBatch == 0 || userID == userCount {
                    var batch = writer.takeBatch()
                    batch.users = Int(userID)
                    guard channel.put(batch) else { return }
                }
            }
            channel.close()
        }

        let inserts = try SeedTable.allCases.map { try BulkInsert(db, table: $0) }
        var lastReport = Date()
        do {
            try db.execute(sql: "BEGIN")
            while let batch = channel.take() {
                for table in SeedTable.allCases {
                    try inserts[table.rawValue].insert(batch.values[table.rawValue])
                }
                guard batch.users % 20_000 == 0 else { continue }
                try db.execute(sql: "COMMIT; BEGIN")
                if Date().timeIntervalSince(lastReport) >= 5 {
                    lastReport = Date()
                    let rows = inserts.reduce(0) { $0 + $1.rows }
                    progress(
                        String(
                            format: "  %d/%d users, %d rows, %.0f rows/s", batch.users, userCount, rows,
                            Double(rows) / lastReport.timeIntervalSince(started)))
                }
            }
            try db.execute(sql: "COMMIT")
        } catch {
            channel.close()
            throw error
        }
        return SeedTable.allCases.map { ($0.name, inserts[$0.rawValue].rows) }
    }

    /// Indexes by time or expiry would take random inserts during the load: one sort each
    /// at the end is faster. SQLite's sorter writes bounded runs to temporary files and
    /// sorts them on worker threads; with temp_store = MEMORY it sorts one list on one
    /// thread (measured at 250k users: 7.2 s against 12 s for these indexes).
    private static func buildRemainingIndexes(_ db: Database, indexSQL: [String], progress: (String) -> Void) throws {
        progress("  building indexes")
        try db.execute(sql: "PRAGMA cache_size = -2000000")
        try db.execute(sql: "PRAGMA temp_store = FILE")
        try db.execute(sql: "PRAGMA threads = 2")
        for statement in indexSQL where !growsInLoadOrder(statement) {
            let indexStart = Date()
            try db.execute(sql: statement)
            let name = statement.split(separator: " ")[2]
            progress("  \(name) in " + String(format: "%.1f s", Date().timeIntervalSince(indexStart)))
        }
    }
}

extension DemoSeeder {
    static let usersPerBatch: Int64 = 1_000

    static let indexesInLoadOrder = [
        "users_created_at", "users_household", "subscriptions_user", "devices_user", "food_items_user",
        "documents_user", "reminders_user", "activity_events_user_time",
    ]

    static func growsInLoadOrder(_ statement: String) -> Bool {
        indexesInLoadOrder.contains { statement.contains("CREATE INDEX \($0) ") }
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
