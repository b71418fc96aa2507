import GRDB

/// How far the receipt poller has read the app's `push_receipts` (`panel_receipt_reader`):
/// one row, id 1, or none before the first receipt.
struct PanelReceiptReader: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_receipt_reader"

    var id: Int64 = 1
    var lastReceiptID: Int64

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id
        case lastReceiptID = "last_receipt_id"
    }

    typealias Columns = CodingKeys

    /// 0 before any receipt was read.
    static func lastReceiptID(_ db: Database) throws -> Int64 {
        try fetchOne(db, key: 1)?.lastReceiptID ?? 0
    }
}
