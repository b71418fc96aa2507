import AdminDomain
import Foundation
import GRDB

/// Receipts as the backend writes them when its hosts' clocks disagree, for the receipt
/// reader's benchmark on a copy of a seeded database: the first stamped an hour ahead, one in
/// ten an hour behind, the rest now, in transactions of 5,000. Never run on a database the
/// backend owns.
public enum SkewedReceipts {
    public static func write(path: String, deliveryIDs: [String], now: Date = Date()) async throws {
        let queue = try DatabaseQueue(path: path)
        let ahead = SQLiteTime.string(now.addingTimeInterval(3_600))
        let behind = SQLiteTime.string(now.addingTimeInterval(-3_600))
        let stamped = SQLiteTime.string(now)
        for start in stride(from: 0, to: deliveryIDs.count, by: 5_000) {
            let chunk = Array(deliveryIDs[start..<min(deliveryIDs.count, start + 5_000)])
            try await queue.write { db in
                let insert = try db.makeStatement(
                    sql: "INSERT INTO push_receipts (delivery_id, event, created_at) VALUES (?, 'received', ?)")
                for (offset, id) in chunk.enumerated() {
                    let index = start + offset
                    try insert.execute(arguments: [id, index == 0 ? ahead : index % 10 == 5 ? behind : stamped])
                }
            }
        }
    }
}
