import Foundation
import GRDB

/// Looks at a user's data (issue 46): paging a whale's items wrote a row a click, and a
/// preview a row per sample user. A staff member's looks at one user within half an hour
/// of their first, from the same address, are one row that counts them and lists the
/// pages seen; a look that showed several users is one row, the users listed beside it in
/// `panel_audit_users` so that the log filtered by `user:N` still finds it.
extension AuditLog {
    /// How long after a first look the same staff member's next looks at the user count in its row.
    public static let lookWindow: TimeInterval = 30 * 60
    /// Longest `detail` kept; past it, the pages seen end with "…".
    static let detailLimit = 1_000
    static let countedLooks: Set<AuditAction> = [.userViewed, .userActivityViewed, .campaignPreviewed]

    /// The row of a look at personal data (a search, a profile, a list, an export), committed
    /// without waiting for the disk's flush (see `PanelDatabase.writeWithoutWaitingForDisk`),
    /// in one transaction with the other looks written at that moment (`writeGrouped`).
    /// A profile's or activity log's look (`detail`: the page seen) within `lookWindow` of the
    /// same staff member's earlier one at the same user is counted in that row instead.
    public func appendLook(_ entry: AuditEntry, now: Date = Date()) async throws {
        _ = try await database.writeGrouped { db in try Self.count(entry, now: now, in: db) }
    }

    /// One look that showed several users (a preview's samples, a dry run's entries): one
    /// row, counted as the looks above are when the same staff member looks again, and each
    /// user beside it.
    public func appendLook(_ entry: AuditEntry, showing users: [Int64], now: Date = Date()) async throws {
        guard !users.isEmpty else { return }
        try await database.writeGrouped { db in
            let id = try Self.count(entry, now: now, in: db)
            for user in Set(users) {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO panel_audit_users (user_id, audit_id) VALUES (?, ?)",
                    arguments: [user, id])
            }
        }
    }

    /// Counts the look in the row of the same staff member's earlier look at the same target
    /// within `lookWindow`, or writes a row; the row's id.
    static func count(_ entry: AuditEntry, now: Date, in db: Database) throws -> Int64 {
        guard countedLooks.contains(entry.action), let adminID = entry.actor?.adminID, let target = entry.target,
            let earlier = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, detail FROM panel_audit_log INDEXED BY panel_audit_log_admin
                    WHERE admin_id = ? AND at >= ? AND at <= ? AND COALESCE(last_at, at) <= ?
                      AND action = ? AND target = ? AND client_address IS ?
                    ORDER BY at DESC, id DESC LIMIT 1
                    """,
                arguments: [
                    adminID, PanelTime(now.addingTimeInterval(-lookWindow)), PanelTime(now), PanelTime(now),
                    entry.action.rawValue, target, entry.clientAddress,
                ])
        else {
            try insert(entry, now: now, in: db)
            return db.lastInsertedRowID
        }
        let id: Int64 = earlier["id"]
        try db.execute(
            sql: "UPDATE panel_audit_log SET looks = looks + 1, last_at = ?, detail = ? WHERE id = ?",
            arguments: [PanelTime(now), pagesSeen(earlier["detail"], adding: entry.detail), id])
        return id
    }

    /// The pages a counted row has seen, each once, in the order first seen.
    static func pagesSeen(_ earlier: String?, adding page: String?) -> String? {
        guard let page, !page.isEmpty else { return earlier }
        guard let earlier, !earlier.isEmpty else { return page }
        let pages = earlier.components(separatedBy: "; ")
        if pages.contains(page) || pages.last == "…" { return earlier }
        let joined = earlier + "; " + page
        return joined.count <= detailLimit - 3 ? joined : earlier + "; …"
    }
}
