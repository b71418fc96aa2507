import GRDB

/// One recovery code of an account (`panel_recovery_codes`), by its hash; spent once used.
struct PanelRecoveryCode: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_recovery_codes"

    var adminID: Int64
    var codeHash: String
    var createdAt: String
    var usedAt: String?

    enum Columns {
        static let adminID = Column(CodingKeys.adminID)
        static let codeHash = Column(CodingKeys.codeHash)
        static let createdAt = Column(CodingKeys.createdAt)
        static let usedAt = Column(CodingKeys.usedAt)
    }

    enum CodingKeys: String, CodingKey {
        case adminID = "admin_id"
        case codeHash = "code_hash"
        case createdAt = "created_at"
        case usedAt = "used_at"
    }
}

extension DerivableRequest<PanelRecoveryCode> {
    func unused(of adminID: Int64) -> Self {
        filter(PanelRecoveryCode.Columns.adminID == adminID && PanelRecoveryCode.Columns.usedAt == nil)
    }
}
