import Foundation
import GRDB

/// Who makes a change, for its audit row: a signed-in staff member from an address, or
/// the operator at the command line.
public struct Actor: Sendable, Equatable {
    public let identity: StaffIdentity?
    public let clientAddress: String?
    /// Recorded as the actor when there is no staff member.
    let nobodyName: String

    init(identity: StaffIdentity?, clientAddress: String?, nobodyName: String = "cli") {
        self.identity = identity
        self.clientAddress = clientAddress
        self.nobodyName = nobodyName
    }

    public static func staff(_ identity: StaffIdentity, from clientAddress: String?) -> Actor {
        Actor(identity: identity, clientAddress: clientAddress)
    }

    /// Recorded as "cli".
    public static let commandLine = Actor(identity: nil, clientAddress: nil)

    /// The panel itself, for what its services decide (a campaign finished, stopped): "panel".
    public static let panel = Actor(identity: nil, clientAddress: nil, nobodyName: "panel")

    func entry(_ action: AuditAction, target: String?, detail: String?) -> AuditEntry {
        AuditEntry(actor: identity, actorEmail: identity == nil ? nobodyName : nil, clientAddress: clientAddress,
                   action: action, target: target, detail: detail)
    }
}

/// An audit row waiting for its transaction: what and by whom, the target filled in there.
struct AuditDraft: Sendable {
    let actor: Actor
    let action: AuditAction
    let detail: String?

    func insert(target admin: Admin, now: Date = Date(), in db: Database) throws {
        try insert(targetAdminID: admin.id, now: now, in: db)
    }

    func insert(targetAdminID id: Int64?, now: Date = Date(), in db: Database) throws {
        try AuditLog.insert(actor.entry(action, target: id.map { AuditTarget.staff($0).description }, detail: detail), now: now, in: db)
    }
}
