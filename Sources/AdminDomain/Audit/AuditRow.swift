import GRDB

/// One row of the audit log as the browser shows it.
public struct AuditRow: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    public static let databaseTableName = "panel_audit_log"
    /// Everything but `admin_id`: the browser names actors by the email they had then.
    public static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.at, Columns.actorEmail, Columns.clientAddress, Columns.action, Columns.target,
            Columns.detail, Columns.looks, Columns.lastAt,
        ]
    }

    public let id: Int64
    public let at: PanelTime
    public let actorEmail: String?
    public let clientAddress: String?
    public let action: String
    /// As stored; `AuditTarget(stored:)` reads it.
    public let target: String?
    public let detail: String?
    /// Looks counted in the row (see `AuditLog.appendLook`), and the time of the last; nil
    /// where a query did not read them.
    public var looks: Int? = nil
    public var lastAt: PanelTime? = nil

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, at, action, target, detail, looks
        case actorEmail = "actor_email"
        case lastAt = "last_at"
        case clientAddress = "client_address"
    }

    public typealias Columns = CodingKeys
}

extension AuditRow {
    /// The log's order: by time, newest first, and by id within a second.
    public static func newerFirst(_ a: AuditRow, _ b: AuditRow) -> Bool {
        (a.at, a.id) > (b.at, b.id)
    }
}

extension AuditRow.CodingKeys {
    /// Not decoded, only filtered on.
    static let adminID = Column("admin_id")
}
