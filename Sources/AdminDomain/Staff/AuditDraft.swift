import Foundation
import GRDB

/// An audit row waiting for its transaction: what and by whom, the target filled in there.
struct AuditDraft: Sendable {
    let actor: AuditActor
    let action: AuditAction
    let detail: String?

    func insert(target admin: Admin, now: Date = Date(), in db: Database) throws {
        try insert(targetAdminID: admin.id, now: now, in: db)
    }

    func insert(targetAdminID id: Int64?, now: Date = Date(), in db: Database) throws {
        try AuditLog.insert(
            actor.entry(action, target: id.map { AuditTarget.staff($0).description }, detail: detail), now: now, in: db)
    }
}
