import Foundation

public enum SignInResult: Sendable, Equatable {
    case signedIn(token: String, identity: StaffIdentity)
    /// One case for unknown email, wrong password and disabled account: callers cannot tell them apart.
    case rejected
    /// Too many recent failures for this account or address: try again after this many seconds.
    case throttled(retryAfter: Int)
}

/// Checks credentials, opens and closes sessions, and audits each step.
public struct SignInService: Sendable {
    public let admins: AdminStore
    public let sessions: SessionStore
    public let audit: AuditLog
    public let throttle: LoginThrottle
    let hasher: PasswordHasher

    public init(admins: AdminStore, sessions: SessionStore, audit: AuditLog, throttle: LoginThrottle, hasher: PasswordHasher) {
        self.admins = admins
        self.sessions = sessions
        self.audit = audit
        self.throttle = throttle
        self.hasher = hasher
    }

    public func signIn(email: String, password: String, clientAddress: String?, userAgent: String?,
                       now: Date = Date()) async throws -> SignInResult {
        let wait = try await throttle.wait(email: email, address: clientAddress, now: now)
        if wait > 0 {
            try await audit.append(AuditEntry(actor: nil, actorEmail: email, clientAddress: clientAddress,
                                              action: .signInThrottled, detail: "wait \(Int(wait)) s"), now: now)
            return .throttled(retryAfter: Int(wait))
        }
        guard let admin = try await admins.find(email: email), admin.disabledAt == nil, let adminID = admin.id else {
            // Hash anyway, so an unknown email costs the same time as a wrong password.
            _ = try await hasher.hash(password)
            try await recordFailure(email: email, target: nil, clientAddress: clientAddress, now: now)
            return .rejected
        }
        guard case let .match(needsRehash) = try await hasher.verify(password, against: admin.passwordHash) else {
            try await recordFailure(email: admin.email, target: "admin:\(adminID)", clientAddress: clientAddress, now: now)
            return .rejected
        }
        try await throttle.recordSuccess(email: email, address: clientAddress)
        if needsRehash {
            try await admins.updatePasswordHash(adminID: adminID, to: try await hasher.hash(password))
        }
        let identity = StaffIdentity(adminID: adminID, email: admin.email, role: admin.role)
        let token = try await sessions.create(adminID: adminID, clientAddress: clientAddress, userAgent: userAgent)
        try await audit.append(AuditEntry(actor: identity, clientAddress: clientAddress, action: .signIn))
        return .signedIn(token: token, identity: identity)
    }

    private func recordFailure(email: String, target: String?, clientAddress: String?, now: Date) async throws {
        try await audit.append(AuditEntry(actor: nil, actorEmail: email, clientAddress: clientAddress,
                                          action: .signInFailed, target: target), now: now)
        for key in try await throttle.recordFailure(email: email, address: clientAddress, now: now) {
            try await audit.append(AuditEntry(actor: nil, actorEmail: email, clientAddress: clientAddress,
                                              action: .signInLocked, target: key,
                                              detail: "\(Int(LoginThrottle.lockDuration / 60)) minutes"), now: now)
        }
    }

    public func signOut(token: String, identity: StaffIdentity?, clientAddress: String?) async throws {
        try await sessions.delete(token: token)
        if let identity {
            try await audit.append(AuditEntry(actor: identity, clientAddress: clientAddress, action: .signOut))
        }
    }
}
