import Foundation

/// Who makes a change, for its audit row: a signed-in staff member from an address, or
/// the operator at the command line.
public struct AuditActor: Sendable, Equatable {
    public let identity: StaffIdentity?
    public let clientAddress: String?
    /// Recorded as the actor when there is no staff member.
    let nobodyName: String

    public init(identity: StaffIdentity?, clientAddress: String?, nobodyName: String = "cli") {
        self.identity = identity
        self.clientAddress = clientAddress
        self.nobodyName = nobodyName
    }

    public static func staff(_ identity: StaffIdentity, from clientAddress: String?) -> AuditActor {
        AuditActor(identity: identity, clientAddress: clientAddress)
    }

    /// Recorded as "cli".
    public static let commandLine = AuditActor(identity: nil, clientAddress: nil)

    /// The panel itself, for what its services decide (a campaign finished, stopped): "panel".
    public static let panel = AuditActor(identity: nil, clientAddress: nil, nobodyName: "panel")

    func entry(_ action: AuditAction, target: String?, detail: String?) -> AuditEntry {
        AuditEntry(
            actor: identity, actorEmail: identity == nil ? nobodyName : nil, clientAddress: clientAddress,
            action: action, target: target, detail: detail)
    }
}
