import GRDB

/// One recovery code of an account (`panel_recovery_codes`), by its hash; spent once used.
struct PanelRecoveryCode: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_recovery_codes"

    var adminID: Int64
    var codeHash: String
    var createdAt: PanelTime
    var usedAt: PanelTime?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case adminID = "admin_id"
        case codeHash = "code_hash"
        case createdAt = "created_at"
        case usedAt = "used_at"
    }

    typealias Columns = CodingKeys
}

extension DerivableRequest<PanelRecoveryCode> {
    func unused(of adminID: Int64) -> Self {
        filter(PanelRecoveryCode.Columns.adminID == adminID && PanelRecoveryCode.Columns.usedAt == nil)
    }
}
