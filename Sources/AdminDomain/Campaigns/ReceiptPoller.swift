import Foundation
import GRDB

/// Reads the app's `push_receipts` forward on their time index and marks the campaign
/// deliveries they confirm: received, or opened (which implies received). The cursor
/// (time, id) is kept in `panel_receipt_cursor`, so a restart goes on where it was.
public struct ReceiptPoller: Sendable {
    let database: PanelDatabase
    let batchSize: Int

    public init(database: PanelDatabase, batchSize: Int = 2_000) {
        self.database = database
        self.batchSize = max(1, batchSize)
    }

    /// Applies every receipt written since the last poll, a batch per short write
    /// transaction. Returns the receipts read.
    @discardableResult
    public func poll() async throws -> Int {
        var read = 0
        while true {
            let batch = try await readBatch()
            guard let last = batch.last else { return read }
            read += batch.count
            try await database.write { db in
                let current = try db.cachedStatement(sql: "SELECT receipt FROM panel_deliveries WHERE id = ? AND campaign_id = ?")
                let mark = try db.cachedStatement(sql: "UPDATE panel_deliveries SET receipt = ? WHERE id = ?")
                let totals = try db.cachedStatement(sql: """
                    UPDATE panel_campaigns SET received_count = received_count + ?, opened_count = opened_count + ? WHERE id = ?
                    """)
                for receipt in batch where receipt.level > 0 {
                    guard let (campaign, row) = Self.parse(receipt.deliveryID),
                          let was = try Int.fetchOne(current, arguments: [row, campaign]), was < receipt.level
                    else { continue }
                    try mark.execute(arguments: [receipt.level, row])
                    try totals.execute(arguments: [was == 0 ? 1 : 0, receipt.level == 2 ? 1 : 0, campaign])
                }
                try db.execute(sql: """
                    INSERT INTO panel_receipt_cursor (id, created_at, receipt_id) VALUES (1, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, receipt_id = excluded.receipt_id
                    """, arguments: [last.createdAt, last.id])
            }
            if batch.count < batchSize { return read }
        }
    }

    struct Receipt {
        let id: Int64
        let deliveryID: String
        /// 1 received, 2 opened, 0 neither.
        let level: Int
        let createdAt: String
    }

    private func readBatch() async throws -> [Receipt] {
        let limit = batchSize
        return try await database.read { db in
            var cursor = try Row.fetchOne(db, sql: "SELECT created_at, receipt_id FROM panel_receipt_cursor WHERE id = 1")
                .map { (createdAt: $0[0] as String, id: $0[1] as Int64) }
            if cursor == nil {
                // Receipts from before the first campaign cannot confirm any of its pushes.
                guard let first = try String.fetchOne(db, sql: "SELECT MIN(launched_at) FROM panel_campaigns") else { return [] }
                cursor = (first, 0)
            }
            guard let cursor else { return [] }
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, CAST(delivery_id AS TEXT), CAST(event AS TEXT), CAST(created_at AS TEXT) FROM push_receipts INDEXED BY push_receipts_time
                WHERE created_at >= :time AND NOT (created_at = :time AND id <= :id)
                ORDER BY created_at, id LIMIT :limit
                """, arguments: ["time": cursor.createdAt, "id": cursor.id, "limit": limit])
            return rows.map { row in
                Receipt(id: row[0], deliveryID: (row[1] as String?) ?? "", level: Self.level((row[2] as String?) ?? ""), createdAt: (row[3] as String?) ?? "")
            }
        }
    }

    /// 1 received, 2 opened; 0 for an event the schema does not name, which counts as nothing.
    static func level(_ event: String) -> Int {
        switch event {
        case "received": 1
        case "opened": 2
        default: 0
        }
    }

    /// "c12-345": campaign 12, delivery row 345. Anything else is not the panel's.
    static func parse(_ deliveryID: String) -> (campaign: Int64, row: Int64)? {
        guard deliveryID.hasPrefix("c"), deliveryID.utf8.count <= 41 else { return nil }
        let parts = deliveryID.dropFirst().split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let campaign = Int64(parts[0]), let row = Int64(parts[1])
        else { return nil }
        return (campaign, row)
    }
}
