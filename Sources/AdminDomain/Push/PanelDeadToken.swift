import GRDB

/// A token a provider called dead (`panel_dead_tokens`), by its SHA-256 only.
struct PanelDeadToken: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_dead_tokens"

    var tokenSHA256: String
    var deviceID: Int64
    var provider: String
    var reason: String
    var recordedAt: String

    enum Columns {
        static let tokenSHA256 = Column(CodingKeys.tokenSHA256)
        static let deviceID = Column(CodingKeys.deviceID)
        static let provider = Column(CodingKeys.provider)
        static let reason = Column(CodingKeys.reason)
        static let recordedAt = Column(CodingKeys.recordedAt)
    }

    enum CodingKeys: String, CodingKey {
        case provider, reason
        case tokenSHA256 = "token_sha256"
        case deviceID = "device_id"
        case recordedAt = "recorded_at"
    }
}
