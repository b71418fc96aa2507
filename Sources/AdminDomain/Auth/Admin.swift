import GRDB

public enum Role: String, Codable, CaseIterable, Sendable, DatabaseValueConvertible {
    case support, marketing, admin
}

/// A staff account (`panel_admins`).
public struct Admin: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "panel_admins"

    public var id: Int64?
    public var email: String
    public var passwordHash: String
    public var role: Role
    public var createdAt: String
    public var disabledAt: String?
    /// Set for a generated one-time password: when it stops working unless changed.
    public var passwordExpiresAt: String?

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let email = Column(CodingKeys.email)
        static let passwordHash = Column(CodingKeys.passwordHash)
        static let disabledAt = Column(CodingKeys.disabledAt)
        static let role = Column(CodingKeys.role)
    }

    enum CodingKeys: String, CodingKey {
        case id, email, role
        case passwordHash = "password_hash"
        case createdAt = "created_at"
        case disabledAt = "disabled_at"
        case passwordExpiresAt = "password_expires_at"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Who is signed in: what a request needs of the admin, without the password hash.
public struct StaffIdentity: Sendable, Equatable {
    public let adminID: Int64
    public let email: String
    public let role: Role
    /// A confirmed TOTP key: without one, a role that requires it reaches only enrolment.
    public var hasTwoFactor: Bool = false
    /// Signed in with a one-time password: only the password page opens until it is changed.
    public var mustChangePassword: Bool = false

    public init(adminID: Int64, email: String, role: Role, hasTwoFactor: Bool = false, mustChangePassword: Bool = false) {
        self.adminID = adminID
        self.email = email
        self.role = role
        self.hasTwoFactor = hasTwoFactor
        self.mustChangePassword = mustChangePassword
    }
}
