import AdminDomain
import Foundation
import GRDB

/// The app's backend going on writing, for benchmarks on a copy of a seeded database: a
/// sign-up, ten events, three food items every 100 ms and a purchase every 5 s, each tick in
/// one small transaction, until cancelled. Never run on a database the backend owns.
public enum BackendActivity {
    public static func run(path: String, every interval: Duration = .milliseconds(100)) async throws {
        // As the backend does: it waits its turn for the write lock the panel shares.
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        var tick = 0
        while !Task.isCancelled {
            tick += 1
            let now = Date()
            let created = SQLiteTime.string(now)
            let expiry = String(SQLiteTime.string(now.addingTimeInterval(30 * 86_400)).prefix(10))
            let purchase = tick % 50 == 0
            try await queue.write { db in
                let maxUser = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1
                try db.execute(
                    sql: "INSERT INTO users (email, password_hash, created_at, last_active_at) VALUES (?, 'x', ?, ?)",
                    arguments: ["bench-\(UUID().uuidString)@example.com", created, created])
                for offset in 0..<10 {
                    let user = Int64.random(in: 1...maxUser)
                    try db.execute(
                        sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                        arguments: [user, created])
                    if offset < 3 {
                        try db.execute(
                            sql: """
                                INSERT INTO food_items (user_id, name, expiry_date, source, created_at, updated_at)
                                VALUES (?, 'milk', ?, 'barcode', ?, ?)
                                """, arguments: [user, expiry, created, created])
                    }
                }
                if purchase {
                    try db.execute(
                        sql: """
                            INSERT INTO subscriptions (
                              user_id, plan_type, status, store, price_cents, currency, started_at, current_period_end)
                            VALUES (?, 'monthly', 'active', 'web', 499, 'EUR', ?, ?)
                            """, arguments: [maxUser, created, SQLiteTime.string(now.addingTimeInterval(30 * 86_400))])
                }
            }
            try await Task.sleep(for: interval)
        }
    }

    /// `events` logins of random users and an 'opened' receipt for each delivery id, stamped
    /// `at`, in one transaction: the app recording more while a campaign's report is measured.
    public static func record(events: Int, opened deliveryIDs: [String], at: Date, path: String) async throws {
        let queue = try DatabaseQueue(path: path)
        let stamp = SQLiteTime.string(at)
        try await queue.write { db in
            let users = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1
            let event = try db.makeStatement(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)")
            for _ in 0..<events { try event.execute(arguments: [Int64.random(in: 1...max(1, users)), stamp]) }
            let receipt = try db.makeStatement(
                sql: "INSERT INTO push_receipts (delivery_id, event, created_at) VALUES (?, 'opened', ?)")
            for id in deliveryIDs { try receipt.execute(arguments: [id, stamp]) }
        }
    }
}
