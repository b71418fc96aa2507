import AdminDomain
import Foundation
import GRDB

extension BackendActivity {
    /// An hour of the app's events before `now`, as the backend records them: `events` rows of
    /// random users at random moments of the hour, stamped in the backend's time form, in
    /// transactions of 5,000. For benchmarks on a copy of a seeded database; never run on one the backend
    /// owns. Returns the ids written, first and last.
    public static func hourOfEvents(path: String, now: Date, events: Int) async throws -> (first: Int64, last: Int64) {
        let queue = try DatabaseQueue(path: path)
        let end = Int64(now.timeIntervalSince1970.rounded(.down))
        let maxUser = try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 1 }
        var random = SeedRandom(seed: UInt64(end), stream: 35)
        var first: Int64?
        var last: Int64 = 0
        for start in stride(from: 0, to: events, by: 5_000) {
            let rows = (start..<min(events, start + 5_000)).map { _ in
                (
                    user: random.int64(1...max(1, maxUser)), at: end - random.int64(1...3_600),
                    kind: random.chance(0.5) ? "login" : "item_added"
                )
            }
            let ids = try await queue.write { db -> (Int64, Int64) in
                let insert = try db.makeStatement(
                    sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, ?, ?)")
                var ids: (Int64, Int64) = (0, 0)
                for (index, row) in rows.enumerated() {
                    try insert.execute(arguments: [row.user, row.kind, SQLiteTime.string(secondsSinceEpoch: row.at)])
                    if index == 0 { ids.0 = db.lastInsertedRowID }
                    ids.1 = db.lastInsertedRowID
                }
                return ids
            }
            first = first ?? ids.0
            last = ids.1
        }
        return (first ?? 0, last)
    }
}
