import GRDB

/// A signed-in session (`panel_sessions`). Keyed by the SHA-256 of the cookie's token:
/// the token itself is never stored.
struct PanelSession: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_sessions"

    var tokenHash: String
    var adminID: Int64
    var createdAt, lastSeenAt, expiresAt: PanelTime
    var clientAddress, userAgent: String?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case tokenHash = "token_hash"
        case adminID = "admin_id"
        case createdAt = "created_at"
        case lastSeenAt = "last_seen_at"
        case expiresAt = "expires_at"
        case clientAddress = "client_address"
        case userAgent = "user_agent"
    }

    typealias Columns = CodingKeys
}

extension DerivableRequest<PanelSession> {
    /// Sessions that have neither run out nor gone idle by these times.
    func live(now: PanelTime, idleCutoff: PanelTime) -> Self {
        filter(PanelSession.Columns.expiresAt > now && PanelSession.Columns.lastSeenAt > idleCutoff)
    }
}

/// What a request needs of a session and its account, in one read by the token's hash.
struct SessionAccount: Decodable, Sendable, FetchableRecord {
    var lastSeenAt, expiresAt: PanelTime
    var email: String
    var adminID: Int64
    var role: Role
    var disabledAt: PanelTime?
    var hasTwoFactor, oneTimePassword: Bool

    enum CodingKeys: String, CodingKey {
        case lastSeenAt = "last_seen_at"
        case expiresAt = "expires_at"
        case adminID = "admin_id"
        case email, role
        case disabledAt = "disabled_at"
        case hasTwoFactor = "has_two_factor"
        case oneTimePassword = "one_time_password"
    }

    /// The session and its account in one read, by the token hash's primary key.
    static func request(tokenHash: String) -> SQLRequest<SessionAccount> {
        """
        SELECT s.last_seen_at, s.expires_at, s.admin_id, a.email, a.role, a.disabled_at,
               t.confirmed_at IS NOT NULL AS has_two_factor, a.password_expires_at IS NOT NULL AS one_time_password
        FROM panel_sessions s JOIN panel_admins a ON a.id = s.admin_id
        LEFT JOIN panel_two_factor t ON t.admin_id = a.id
        WHERE s.token_hash = \(tokenHash)
        """
    }
}
