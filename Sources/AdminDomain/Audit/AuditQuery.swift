import Foundation
import GRDB

/// Filters for the audit log; every one is optional and they combine with AND.
public struct AuditQuery: Sendable, Equatable {
    /// Actors whose email starts with this, in any case: an email typed whole is its own prefix.
    public var actorPrefix: String?
    public var action: AuditAction?
    /// Rows about this target, in any of its stored spellings (`staff:3` finds `admin:3`).
    public var target: AuditTarget?
    /// Whole UTC days, 'YYYY-MM-DD', both included.
    public var fromDay: String?
    public var toDay: String?

    public init(
        actorPrefix: String? = nil, action: AuditAction? = nil, target: AuditTarget? = nil,
        fromDay: String? = nil, toDay: String? = nil
    ) {
        self.actorPrefix = actorPrefix
        self.action = action
        self.target = target
        self.fromDay = fromDay
        self.toDay = toDay
    }

    /// A prefix matching more actors than this is refused: each actor is one read of the
    /// page, and so many are better narrowed by typing more.
    public static let actorLimit = 20

    /// The user a `user:N` target names: looks that showed them among others are theirs too.
    var shownUser: Int64? {
        if case .user(let id)? = target { return id }
        return nil
    }

    /// The conditions besides the actor and the target, which `AuditLog.page` reads one
    /// index value at a time; `cursor` is the row the page starts from, the keyset (at, id)
    /// to go below (older rows) or, with `newer`, above.
    func otherConditions(cursor: AuditCursor?, newer: Bool = false) -> [SQL] {
        var conditions: [SQL] = []
        if let action { conditions.append("action = \(action.rawValue)") }
        if let fromDay { conditions.append("at >= \(fromDay)") }
        if let toDay { conditions.append("at < date(\(toDay), '+1 day')") }
        if let cursor {
            conditions.append(
                newer ? "(at, id) > (\(cursor.at), \(cursor.id))" : "(at, id) < (\(cursor.at), \(cursor.id))")
        }
        return conditions
    }

    /// The distinct actor emails starting with `prefix`, in index order, one seek each: a
    /// range of the (actor_email NOCASE, id) index, never a LIKE over the log. Every email
    /// that starts with the prefix sorts before the prefix followed by the highest code point.
    static let nextActorSQL = """
        SELECT actor_email FROM panel_audit_log INDEXED BY panel_audit_log_actor
        WHERE actor_email >= :prefix COLLATE NOCASE AND actor_email < :upper COLLATE NOCASE
          AND actor_email > :after COLLATE NOCASE
        ORDER BY actor_email COLLATE NOCASE LIMIT 1
        """
}

/// Where a page of the log starts: below this row in time order. Made from a row the log
/// holds (`AuditLog.cursor(below:)`), never from a time alone, so rows of the same second
/// are neither skipped nor shown twice.
struct AuditCursor: Sendable, Equatable {
    let at: PanelTime
    let id: Int64
}

/// A prefix that matches too many actors to read page by page.
public struct TooManyActors: Error, Sendable, Equatable {
    public let prefix: String
}

extension AuditLog {
    /// Up to `limit` rows below the row `before` names, newest first by time (`at`, then id:
    /// a batch of counted events is written after rows that happened later, with its first
    /// event's time). Keyset pagination on (at, id), no OFFSET; an id the log does not hold
    /// starts nowhere and gives no rows.
    /// With an actor or a target, each actor email (or each spelling of the target) is read
    /// from its own index, already in (at, id) order, and the reads are merged: an IN list or
    /// a range on the index's first column would sort every matching row of the log.
    /// Throws `TooManyActors` when the actor prefix matches more than `AuditQuery.actorLimit`.
    /// `newerThan`: the page just above that row instead (Previous), read upwards on the
    /// same indexes and turned round, still newest first.
    public func page(_ query: AuditQuery, before: Int64? = nil, newerThan: Int64? = nil, limit: Int = 50) async throws
        -> [AuditRow]
    {
        try await database.read { db in
            var cursor: AuditCursor?
            let newer = before == nil && newerThan != nil
            if let start = before ?? newerThan {
                guard
                    let at = try PanelTime.fetchOne(
                        db, sql: "SELECT at FROM panel_audit_log WHERE id = ?", arguments: [start])
                else { return [] }
                cursor = AuditCursor(at: at, id: start)
            }
            let others = query.otherConditions(cursor: cursor, newer: newer)
            var keys: [SQL] = []
            var filters: [SQL] = []
            let targets = query.target?.storedForms
            if let prefix = query.actorPrefix {
                let actors = try Self.actors(startingWith: prefix, in: db)
                guard actors.count <= AuditQuery.actorLimit else { throw TooManyActors(prefix: prefix) }
                keys = actors.map { "actor_email = \($0) COLLATE NOCASE" }
                if let targets {
                    let named: SQL = "target IN (\(targets.map { "\($0)" as SQL }.joined(separator: ", ")))"
                    filters.append(query.shownUser.map { "(\(named) OR \(Self.showing($0)))" } ?? named)
                }
                if keys.isEmpty { return [] }
            } else if let targets {
                keys = targets.map { "target = \($0)" } + (query.shownUser.map { [Self.showing($0)] } ?? [])
            }
            let select: SQL = """
                SELECT id, at, actor_email, client_address, action, target, detail, looks, last_at FROM panel_audit_log
                """
            func rows(_ conditions: [SQL]) throws -> [AuditRow] {
                let clause: SQL = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
                let order: SQL = newer ? "at ASC, id ASC" : "at DESC, id DESC"
                return try AuditRow.fetchAll(
                    db, SQLRequest(literal: "\(select) \(clause) ORDER BY \(order) LIMIT \(limit)"))
            }
            // Upwards: the `limit` rows nearest above the cursor, then newest first.
            func shown(_ found: [AuditRow]) -> [AuditRow] {
                newer
                    ? Array(found.sorted { AuditRow.newerFirst($1, $0) }.prefix(limit).reversed())
                    : Array(found.sorted(by: AuditRow.newerFirst).prefix(limit))
            }
            guard !keys.isEmpty else { return shown(try rows(others)) }
            var merged: [AuditRow] = []
            for key in keys {
                merged += try rows([key] + filters + others)
            }
            return shown(merged)
        }
    }

    /// Rows of looks that showed this user among others (a preview's samples).
    static func showing(_ user: Int64) -> SQL {
        "id IN (SELECT audit_id FROM panel_audit_users WHERE user_id = \(user))"
    }

    /// Up to one more than `AuditQuery.actorLimit` distinct actor emails starting with `prefix`.
    static func actors(startingWith prefix: String, in db: Database) throws -> [String] {
        let statement = try db.cachedStatement(sql: AuditQuery.nextActorSQL)
        var found: [String] = []
        var after = ""
        while found.count <= AuditQuery.actorLimit,
            let next = try String.fetchOne(
                statement, arguments: ["prefix": prefix, "upper": prefix + "\u{10FFFF}", "after": after])
        {
            found.append(next)
            after = next
        }
        return found
    }

    /// Every matching row, newest first, handed over in batches that are each one short read.
    public func forEachBatch(
        _ query: AuditQuery, batchSize: Int = 1_000,
        _ body: ([AuditRow]) async throws -> Void
    ) async throws {
        var before: Int64?
        while true {
            let rows = try await page(query, before: before, limit: batchSize)
            guard let last = rows.last else { return }
            try await body(rows)
            before = last.id
        }
    }
}
