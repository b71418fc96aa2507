import GRDB

/// The step between a correct password and a second factor (`panel_login_challenges`),
/// keyed by the SHA-256 of its cookie's token.
struct PanelLoginChallenge: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_login_challenges"

    var tokenHash: String
    var adminID: Int64
    var expiresAt: String
    var failures: Int = 0

    enum Columns {
        static let tokenHash = Column(CodingKeys.tokenHash)
        static let adminID = Column(CodingKeys.adminID)
        static let expiresAt = Column(CodingKeys.expiresAt)
        static let failures = Column(CodingKeys.failures)
    }

    enum CodingKeys: String, CodingKey {
        case failures
        case tokenHash = "token_hash"
        case adminID = "admin_id"
        case expiresAt = "expires_at"
    }
}
