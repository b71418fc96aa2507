import Foundation
import GRDB

/// Reads the app's `push_receipts` forward by their id and marks the campaign deliveries they
/// confirm: received, or opened (which implies received). The id is the only order a
/// receipt has that no clock wrote: a host whose clock runs ahead or behind stamps
/// `created_at` as it likes, so that column is never a cursor. The last id read is kept in
/// `panel_receipt_reader`, so a restart goes on where it was; reading a receipt twice
/// changes nothing, since a delivery's level only rises.
///
/// Only a receipt for a delivery whose request went out (accepted, unknown, or still in
/// flight) counts; one for a delivery never sent (waiting, cancelled, capped, failed) is
/// counted apart as ignored.
public struct ReceiptPoller: Sendable {
    let database: PanelDatabase
    let batchSize: Int
    /// Told which campaigns a batch changed, after its commit.
    let changes: CampaignChanges?

    public init(database: PanelDatabase, batchSize: Int = 2_000, changes: CampaignChanges? = nil) {
        self.database = database
        self.batchSize = max(1, batchSize)
        self.changes = changes
    }

    /// Applies every receipt written since the last poll, a batch per short write
    /// transaction. Returns the receipts read. Writes nothing when there is nothing new.
    @discardableResult
    public func poll(now: Date = Date()) async throws -> Int {
        var read = 0
        while true {
            let batch = try await readBatch()
            guard let last = batch.last else { return read }
            read += batch.count
            let counting = Set(DeliveryState.wentOut)
            try await database.write { db in
                // The campaigns of the rows changed, gathered as they change: no query of its own.
                var touched: Set<Int64> = []
                let current = try db.cachedStatement(
                    sql: "SELECT state, receipt FROM panel_deliveries WHERE id = ? AND campaign_id = ?")
                // The first open is stamped with the panel's clock, not the receipt's: opens within
                // a day of the send are counted from it (`opened_at`).
                let mark = try db.cachedStatement(
                    sql: """
                        UPDATE panel_deliveries
                        SET receipt = ?, opened_at = CASE WHEN ? = 2 THEN COALESCE(opened_at, ?) END
                        WHERE id = ?
                        """)
                let stamp = SQLiteTime.string(now)
                let totals = try db.cachedStatement(
                    sql: """
                        UPDATE panel_campaigns
                        SET received_count = received_count + ?, opened_count = opened_count + ?
                        WHERE id = ?
                        """)
                let ignored = try db.cachedStatement(
                    sql: "UPDATE panel_campaigns SET ignored_receipts = ignored_receipts + 1 WHERE id = ?")
                for receipt in batch where receipt.level > 0 {
                    guard let (campaign, row) = Self.parse(receipt.deliveryID),
                        let delivery = try Row.fetchOne(current, arguments: [row, campaign])
                    else { continue }
                    let state: Stored<DeliveryState> = try delivery.decode(forColumn: PanelDelivery.Columns.state)
                    guard let known = state.known, counting.contains(known) else {
                        try ignored.execute(arguments: [campaign])
                        touched.insert(campaign)
                        continue
                    }
                    let was: Int = delivery[PanelDelivery.Columns.receipt]
                    guard was < receipt.level else { continue }
                    try mark.execute(arguments: [receipt.level, receipt.level, stamp, row])
                    try totals.execute(arguments: [was == 0 ? 1 : 0, receipt.level == 2 ? 1 : 0, campaign])
                    touched.insert(campaign)
                }
                try PanelReceiptReader(lastReceiptID: last.id).upsert(db)
                changes?.publishOnCommit(touched, in: db)
            }
            if batch.count < batchSize { return read }
        }
    }

    struct Receipt {
        let id: Int64
        let deliveryID: String
        /// 1 received, 2 opened, 0 neither.
        let level: Int
    }

    /// The next receipts after the last one read, on the table's own key.
    private func readBatch() async throws -> [Receipt] {
        let limit = batchSize
        return try await database.read { db in
            let after = try PanelReceiptReader.lastReceiptID(db)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT id, CAST(delivery_id AS TEXT) AS delivery_id, CAST(event AS TEXT) AS event FROM push_receipts
                    WHERE id > ? ORDER BY id LIMIT ?
                    """, arguments: [after, limit]
            ).map { row in
                Receipt(
                    id: row["id"], deliveryID: (row["delivery_id"] as String?) ?? "",
                    level: Self.level((row["event"] as String?) ?? ""))
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
