import AdminDomain
import Foundation
import GRDB

/// Sign-ups and events one second either side of the time of day the earlier spans end at:
/// yesterday, a week and 30 days back. A comparison that used whole days (or the wrong
/// side of the second) counts one of them wrongly.
enum ClockRows {
    static func add(to path: String, now: Date) async throws {
        let seconds = Int64(now.timeIntervalSince1970)
        try await BoundaryRows.queue(path).write { db in
            for daysBack in [1, 7, 30] {
                for offset in [-1, 0, 1] {
                    let stamp = SQLiteTime.string(secondsSinceEpoch: seconds - Int64(daysBack) * 86_400 + Int64(offset))
                    try db.execute(
                        sql: """
                            INSERT INTO users (email, password_hash, plan, created_at, last_active_at)
                              VALUES (?, 'x', 'free', ?, ?)
                            """, arguments: ["clock-\(daysBack)-\(offset + 1)@example.com", stamp, stamp])
                    // A user of their own, active only then: nothing else makes them count.
                    try db.execute(
                        sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                        arguments: [db.lastInsertedRowID, stamp])
                }
            }
            // The 'T' form of the backend's time, and one stamped later today than now.
            let early = SQLiteTime.string(secondsSinceEpoch: seconds - 86_400 - 3600).replacingOccurrences(
                of: " ", with: "T")
            try db.execute(
                sql:
                    "INSERT INTO users (email, password_hash, plan, created_at) "
                    + "VALUES ('t-form@example.com', 'x', 'free', ?)",
                arguments: [early])
            try db.execute(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                arguments: [db.lastInsertedRowID, early])
            let ahead = SQLiteTime.string(secondsSinceEpoch: seconds + 3600)
            try db.execute(
                sql:
                    "INSERT INTO users (email, password_hash, plan, created_at) "
                    + "VALUES ('ahead@example.com', 'x', 'free', ?)",
                arguments: [ahead])
        }
    }
}
