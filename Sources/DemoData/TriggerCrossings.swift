import AdminDomain
import Foundation
import GRDB

/// The app's backend making users cross the journeys' triggers, for benchmarks on a copy of a
/// seeded database: users who stop opening the app, sign-ups, subscriptions that will not
/// renew, written as the backend writes them (its time form, its own rows). Never run on a
/// database the backend owns.
public enum TriggerCrossings {
    static let day: Int64 = 86_400

    /// An hour of the backend before `now`: `crossings` users whose last activity was 30 days
    /// before a moment of the hour, as many sign-ups two days before one, as many premium
    /// subscriptions cancelled to end within 3 days, and 20,000 users active in the hour.
    public static func hour(path: String, now: Int64, crossings: Int) async throws {
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            var random = SystemRandomNumberGenerator()
            let maxUser = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1
            func text(_ seconds: Int64) -> String { SQLiteTime.string(secondsSinceEpoch: seconds) }
            let activity = try db.makeStatement(sql: "UPDATE users SET last_active_at = ? WHERE id = ?")
            for _ in 0..<crossings {
                try activity.execute(arguments: [
                    text(now - 30 * day - Int64.random(in: 0..<3_600, using: &random)),
                    Int64.random(in: 1...maxUser, using: &random),
                ])
            }
            for _ in 0..<20_000 {
                try activity.execute(arguments: [
                    text(now - Int64.random(in: 0..<3_600, using: &random)),
                    Int64.random(in: 1...maxUser, using: &random),
                ])
            }
            let signUp = try db.makeStatement(sql: "UPDATE users SET created_at = ? WHERE id = ?")
            for _ in 0..<crossings {
                try signUp.execute(arguments: [
                    text(now - 2 * day - Int64.random(in: 0..<3_600, using: &random)),
                    Int64.random(in: 1...maxUser, using: &random),
                ])
            }
            let lapse = try db.makeStatement(
                sql: """
                    UPDATE subscriptions SET status = 'cancelled', cancelled_at = ?, current_period_end = ?
                    WHERE id = (SELECT id FROM subscriptions WHERE id >= ? ORDER BY id LIMIT 1)
                    """)
            let lastSubscription = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM subscriptions") ?? 0
            for _ in 0..<crossings where lastSubscription > 0 {
                try lapse.execute(arguments: [
                    text(now - 600), text(now + Int64.random(in: 3_600..<(3 * day), using: &random)),
                    Int64.random(in: 1...lastSubscription, using: &random),
                ])
            }
        }
    }

    /// `users` random users whose last activity was `days` days before a moment of the day
    /// before `now`: a day's crossings of an `inactive_days` trigger at once.
    public static func day(path: String, now: Int64, users: Int, days: Int64) async throws {
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            var random = SystemRandomNumberGenerator()
            let maxUser = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1
            let statement = try db.makeStatement(sql: "UPDATE users SET last_active_at = ? WHERE id = ?")
            for _ in 0..<users {
                try statement.execute(arguments: [
                    SQLiteTime.string(secondsSinceEpoch: now - days * day - Int64.random(in: 0..<day, using: &random)),
                    Int64.random(in: 1...maxUser, using: &random),
                ])
            }
        }
    }

    /// Every second until cancelled, `perSecond` random users whose last activity was `days`
    /// days and a second ago: they cross an `inactive_days` trigger now. Waits for the panel's
    /// write lock as the backend does. Returns how many it wrote.
    public static func everySecond(path: String, perSecond: Int, days: Int64) async throws -> Int {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let maxUser = try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1 }
        var written = 0
        while !Task.isCancelled {
            let now = Int64(Date().timeIntervalSince1970)
            let users = (0..<perSecond).map { _ in Int64.random(in: 1...maxUser) }
            try await queue.write { db in
                for user in users {
                    try db.execute(
                        sql: "UPDATE users SET last_active_at = ? WHERE id = ?",
                        arguments: [SQLiteTime.string(secondsSinceEpoch: now - days * day - 1), user])
                }
            }
            written += users.count
            do { try await Task.sleep(for: .seconds(1)) } catch { break }
        }
        return written
    }
}
