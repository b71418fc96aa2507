import GRDB

/// One row of the audit log as the browser shows it.
public struct AuditRow: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    public static let databaseTableName = "panel_audit_log"
    /// Everything but `admin_id`: the browser names actors by the email they had then.
    public static var databaseSelection: [any SQLSelectable] {
        [Columns.id, Columns.at, Columns.actorEmail, Columns.clientAddress, Columns.action, Columns.target, Columns.detail]
    }

    public let id: Int64
    public let at: String
    public let actorEmail: String?
    public let clientAddress: String?
    public let action: String
    /// As stored; `AuditTarget(stored:)` reads it.
    public let target: String?
    public let detail: String?

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let at = Column(CodingKeys.at)
        static let adminID = Column("admin_id")
        static let actorEmail = Column(CodingKeys.actorEmail)
        static let clientAddress = Column(CodingKeys.clientAddress)
        static let action = Column(CodingKeys.action)
        static let target = Column(CodingKeys.target)
        static let detail = Column(CodingKeys.detail)
    }

    enum CodingKeys: String, CodingKey {
        case id, at, action, target, detail
        case actorEmail = "actor_email"
        case clientAddress = "client_address"
    }
}
