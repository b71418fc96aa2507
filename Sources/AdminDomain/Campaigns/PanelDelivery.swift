import GRDB

/// One push of a campaign to one device (`panel_deliveries`), its id the delivery id the
/// providers and the app see. Written only by batch SQL (the freeze's INSERT … SELECT,
/// the claim's UPDATE), hundreds of thousands at a time: hence no `PersistableRecord`.
struct PanelDelivery: Sendable, Equatable, FetchableRecord, TableRecord {
    static let databaseTableName = "panel_deliveries"

    var id, campaignID, deviceID, userID: Int64
    var state: Stored<DeliveryState>
    var dueAt, updatedAt: PanelTime
    var attempts: Int
    var detail, messageID: String?
    /// 0 nothing confirmed, 1 received, 2 opened.
    var receipt: Int
    /// nil: launched before variants, or waiting for the winner.
    var variant: Stored<MessageVariant>?

    enum Columns: String, ColumnExpression {
        case id, state, attempts, detail, receipt, variant
        case campaignID = "campaign_id"
        case deviceID = "device_id"
        case userID = "user_id"
        case dueAt = "due_at"
        case messageID = "message_id"
        case updatedAt = "updated_at"
        case entryID = "entry_id"
        case openedAt = "opened_at"
    }

    init(row: Row) throws {
        (id, campaignID, deviceID, userID) = (
            row[Columns.id], row[Columns.campaignID], row[Columns.deviceID], row[Columns.userID]
        )
        (state, variant) = (try row.decode(forColumn: Columns.state), try row.decode(forColumn: Columns.variant))
        (dueAt, updatedAt) = (try row.decode(forColumn: Columns.dueAt), try row.decode(forColumn: Columns.updatedAt))
        (attempts, receipt) = (row[Columns.attempts], row[Columns.receipt])
        (detail, messageID) = (row[Columns.detail], row[Columns.messageID])
    }
}
