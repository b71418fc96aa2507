import Foundation

public enum SignInResult: Sendable, Equatable {
    case signedIn(token: String, identity: StaffIdentity)
    /// One case for unknown email, wrong password and disabled account: callers cannot tell them apart.
    case rejected
}

/// Checks credentials, opens and closes sessions, and audits each step.
public struct SignInService: Sendable {
    public let admins: AdminStore
    public let sessions: SessionStore
    public let audit: AuditLog
    let hasher: PasswordHasher

    public init(admins: AdminStore, sessions: SessionStore, audit: AuditLog, hasher: PasswordHasher) {
        self.admins = admins
        self.sessions = sessions
        self.audit = audit
        self.hasher = hasher
    }

    public func signIn(email: String, password: String, clientAddress: String?, userAgent: String?) async throws -> SignInResult {
        guard let admin = try await admins.find(email: email), admin.disabledAt == nil, let adminID = admin.id else {
            // Hash anyway, so an unknown email costs the same time as a wrong password.
            _ = try await hasher.hash(password)
            try await audit.append(AuditEntry(actor: nil, actorEmail: email, clientAddress: clientAddress, action: .signInFailed))
            return .rejected
        }
        guard case let .match(needsRehash) = try await hasher.verify(password, against: admin.passwordHash) else {
            try await audit.append(AuditEntry(actor: nil, actorEmail: admin.email, clientAddress: clientAddress,
                                              action: .signInFailed, target: "admin:\(adminID)"))
            return .rejected
        }
        if needsRehash {
            try await admins.updatePasswordHash(adminID: adminID, to: try await hasher.hash(password))
        }
        let identity = StaffIdentity(adminID: adminID, email: admin.email, role: admin.role)
        let token = try await sessions.create(adminID: adminID, clientAddress: clientAddress, userAgent: userAgent)
        try await audit.append(AuditEntry(actor: identity, clientAddress: clientAddress, action: .signIn))
        return .signedIn(token: token, identity: identity)
    }

    public func signOut(token: String, identity: StaffIdentity?, clientAddress: String?) async throws {
        try await sessions.delete(token: token)
        if let identity {
            try await audit.append(AuditEntry(actor: identity, clientAddress: clientAddress, action: .signOut))
        }
    }
}
