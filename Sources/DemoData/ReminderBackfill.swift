import AdminDomain
import Foundation
import GRDB

/// Reminders as a busy backend leaves them, added to a copy of a seeded database for the
/// reminder health benchmark: spread over 45 days either side of now at any minute (the
/// seeder puts all of them at 09:00), the past ones mostly sent within a minute, some late,
/// a few failed, cancelled or still waiting. Never run on a database the backend owns.
public enum ReminderBackfill {
    public static func add(_ count: Int, path: String, now: Date = Date(), batch: Int = 50_000) async throws {
        let queue = try DatabaseQueue(path: path)
        let nowSeconds = Int64(now.timeIntervalSince1970)
        var generator = SeedRandom(seed: 33, stream: 1)
        var left = count
        while left > 0 {
            let rows = min(batch, left)
            left -= rows
            let chunk = generator
            generator = try await queue.write { [chunk] db in
                var rng = chunk
                let users = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1
                let insert = try db.makeStatement(
                    sql: """
                        INSERT INTO reminders (
                          user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at, opened_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                for _ in 0..<rows {
                    let scheduled = nowSeconds + Int64(rng.int(-45 * 86_400...45 * 86_400)) / 60 * 60
                    var status = "scheduled"
                    var sent: Int64?
                    var opened: Int64?
                    if scheduled < nowSeconds - 300 {
                        let roll = rng.int(0...99)
                        status = roll < 93 ? "sent" : roll < 96 ? "failed" : roll < 99 ? "cancelled" : "scheduled"
                        if status == "sent" {
                            let late = rng.int(0...99)
                            sent =
                                scheduled
                                + Int64(
                                    late < 80 ? rng.int(0...60) : late < 95 ? rng.int(61...600) : rng.int(601...7_200))
                            if rng.chance(0.25) { opened = sent.map { $0 + Int64(rng.int(5...20_000)) } }
                        }
                    }
                    try insert.execute(arguments: [
                        Int64(rng.int(1...Int(users))), rng.chance(0.7) ? "food" : "document",
                        Int64(rng.int(1...1_000_000)),
                        rng.pick([30, 15, 7, 1, 0]), SQLiteTime.string(secondsSinceEpoch: scheduled), status,
                        sent.map { SQLiteTime.string(secondsSinceEpoch: $0) },
                        opened.map { SQLiteTime.string(secondsSinceEpoch: $0) },
                    ])
                }
                return rng
            }
        }
    }
}
