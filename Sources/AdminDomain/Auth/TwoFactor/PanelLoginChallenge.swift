import GRDB

/// The step between a correct password and a second factor (`panel_login_challenges`),
/// keyed by the SHA-256 of its cookie's token.
struct PanelLoginChallenge: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_login_challenges"

    var tokenHash: String
    var adminID: Int64
    var expiresAt: PanelTime
    var failures: Int = 0

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case failures
        case tokenHash = "token_hash"
        case adminID = "admin_id"
        case expiresAt = "expires_at"
    }

    typealias Columns = CodingKeys
}
