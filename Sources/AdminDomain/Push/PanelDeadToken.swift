import GRDB

/// A token a provider called dead (`panel_dead_tokens`), by its SHA-256 only.
struct PanelDeadToken: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_dead_tokens"

    var tokenSHA256, provider, reason: String
    var recordedAt: PanelTime
    var deviceID: Int64

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case provider, reason
        case tokenSHA256 = "token_sha256"
        case deviceID = "device_id"
        case recordedAt = "recorded_at"
    }

    typealias Columns = CodingKeys
}
