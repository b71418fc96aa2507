import GRDB

/// One push of a campaign to one device (`panel_deliveries`), its id the delivery id the
/// providers and the app see. Written only by batch SQL (the freeze's INSERT … SELECT,
/// the claim's UPDATE), hundreds of thousands at a time: hence no `PersistableRecord`.
struct PanelDelivery: Sendable, Equatable, FetchableRecord, TableRecord {
    static let databaseTableName = "panel_deliveries"

    var id: Int64
    var campaignID: Int64
    var deviceID: Int64
    var userID: Int64
    var state: Stored<DeliveryState>
    var dueAt: String
    var attempts: Int
    var detail: String?
    var messageID: String?
    var updatedAt: String
    /// 0 nothing confirmed, 1 received, 2 opened.
    var receipt: Int
    /// nil: launched before variants, or waiting for the winner.
    var variant: Stored<MessageVariant>?

    enum Columns {
        static let id = Column("id")
        static let campaignID = Column("campaign_id")
        static let deviceID = Column("device_id")
        static let userID = Column("user_id")
        static let state = Column("state")
        static let dueAt = Column("due_at")
        static let attempts = Column("attempts")
        static let detail = Column("detail")
        static let messageID = Column("message_id")
        static let updatedAt = Column("updated_at")
        static let receipt = Column("receipt")
        static let variant = Column("variant")
    }

    init(row: Row) throws {
        id = row[Columns.id]
        campaignID = row[Columns.campaignID]
        deviceID = row[Columns.deviceID]
        userID = row[Columns.userID]
        state = try row.decode(forColumn: Columns.state)
        dueAt = row[Columns.dueAt]
        attempts = row[Columns.attempts]
        detail = row[Columns.detail]
        messageID = row[Columns.messageID]
        updatedAt = row[Columns.updatedAt]
        receipt = row[Columns.receipt]
        variant = try row.decode(forColumn: Columns.variant)
    }
}
