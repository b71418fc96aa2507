import GRDB

/// One throttle count as the admin page lists it: its kind, the email typed ('' for an
/// address's count) and the client address ('' for an account's count), each a column.
public struct ThrottleEntry: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    public static let databaseTableName = "panel_login_throttle"

    public let kind: ThrottleKey.Kind
    public let email: String
    public let address: String
    public let failures: Int
    public let lastFailureAt: PanelTime
    public let lockedUntil: PanelTime?

    public init(key: ThrottleKey, failures: Int, lastFailureAt: PanelTime, lockedUntil: PanelTime?) {
        kind = key.kind
        email = key.email
        address = key.address
        self.failures = failures
        self.lastFailureAt = lastFailureAt
        self.lockedUntil = lockedUntil
    }

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case kind, email, address, failures
        case lastFailureAt = "last_failure_at"
        case lockedUntil = "locked_until"
    }

    public typealias Columns = CodingKeys

    /// The row's key, as stored.
    public var key: ThrottleKey { ThrottleKey(kind, email, address) }

    /// The key in words: which email, from which address.
    public var who: String {
        switch kind {
        case .pair: "\(email) from \(address)"
        case .address: "any account from \(address)"
        case .account: "\(email) from any address"
        }
    }
}

extension ThrottleEntry {
    /// Every count still in force, locks first, newest failures next: what admins see.
    static func inForce(now: PanelTime, staleBefore: PanelTime) -> QueryInterfaceRequest<ThrottleEntry> {
        ThrottleEntry
            .filter(Columns.lockedUntil > now || (Columns.lockedUntil == nil && Columns.lastFailureAt > staleBefore))
            .order(Columns.lockedUntil == nil, Columns.lastFailureAt.desc)
            .limit(500)
    }

    static func find(_ key: ThrottleKey, in db: Database) throws -> ThrottleEntry? {
        try ThrottleEntry.filter(key.condition).fetchOne(db)
    }
}
