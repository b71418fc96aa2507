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
    public var createdAt: PanelTime
    public var disabledAt: PanelTime?
    /// Set for a generated one-time password: when it stops working unless changed.
    public var passwordExpiresAt: PanelTime?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, email, role
        case passwordHash = "password_hash"
        case createdAt = "created_at"
        case disabledAt = "disabled_at"
        case passwordExpiresAt = "password_expires_at"
    }

    public typealias Columns = CodingKeys

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

    public init(adminID: Int64, email: String, role: Role, hasTwoFactor: Bool = false, mustChangePassword: Bool = false)
    {
        self.adminID = adminID
        self.email = email
        self.role = role
        self.hasTwoFactor = hasTwoFactor
        self.mustChangePassword = mustChangePassword
    }
}
