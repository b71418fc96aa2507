import Foundation
import GRDB

/// One row of the audit log as the browser shows it.
public struct AuditRow: Sendable, Equatable {
    public let id: Int64
    public let at: String
    public let actorEmail: String?
    public let clientAddress: String?
    public let action: String
    public let target: String?
    public let detail: String?
}

/// Filters for the audit log; every one is optional and they combine with AND.
public struct AuditQuery: Sendable, Equatable {
    public var actorEmail: String?
    public var action: AuditAction?
    public var target: String?
    /// Whole UTC days, 'YYYY-MM-DD', both included.
    public var fromDay: String?
    public var toDay: String?

    public init(actorEmail: String? = nil, action: AuditAction? = nil, target: String? = nil,
                fromDay: String? = nil, toDay: String? = nil) {
        self.actorEmail = actorEmail
        self.action = action
        self.target = target
        self.fromDay = fromDay
        self.toDay = toDay
    }

    /// The WHERE clause and its arguments; `before` pages by id, newest first.
    func whereClause(before: Int64?) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        func add(_ condition: String, _ value: (any DatabaseValueConvertible)?) {
            conditions.append(condition)
            _ = arguments.append(contentsOf: [value])
        }
        if let actorEmail { add("actor_email = ? COLLATE NOCASE", actorEmail) }
        if let action { add("action = ?", action.rawValue) }
        if let target { add("target = ?", target) }
        if let fromDay { add("at >= ?", fromDay) }
        if let toDay { add("at < date(?, '+1 day')", toDay) }
        if let before { add("id < ?", before) }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}

extension AuditLog {
    /// Up to `limit` rows older than `before` (newest first): keyset pagination, no OFFSET.
    public func page(_ query: AuditQuery, before: Int64? = nil, limit: Int = 50) async throws -> [AuditRow] {
        try await database.read { db in
            let (clause, arguments) = query.whereClause(before: before)
            var all = arguments
            _ = all.append(contentsOf: [limit])
            return try Row.fetchAll(
                db,
                sql: """
                SELECT id, at, actor_email, client_address, action, target, detail FROM panel_audit_log
                \(clause) ORDER BY id DESC LIMIT ?
                """,
                arguments: all
            ).map { row in
                AuditRow(id: row[0], at: row[1], actorEmail: row[2], clientAddress: row[3], action: row[4],
                         target: row[5], detail: row[6])
            }
        }
    }

    /// Every matching row, newest first, handed over in batches that are each one short read.
    public func forEachBatch(_ query: AuditQuery, batchSize: Int = 1_000,
                             _ body: ([AuditRow]) async throws -> Void) async throws {
        var before: Int64?
        while true {
            let rows = try await page(query, before: before, limit: batchSize)
            guard let last = rows.last else { return }
            try await body(rows)
            before = last.id
        }
    }
}
