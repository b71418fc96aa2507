import Foundation

public enum SignInResult: Sendable, Equatable {
    case signedIn(token: String, identity: StaffIdentity)
    /// The password was right and the account has two-factor on: the token names the
    /// challenge, for the short-lived cookie of the code page.
    case needsSecondFactor(challenge: String)
    /// One case for unknown email, wrong password and disabled account: callers cannot tell them apart.
    case rejected
    /// Too many recent failures for this account or address: try again after this many seconds.
    case throttled(retryAfter: Int)
    /// The right one-time password, but past its day: an admin must issue a new one.
    case oneTimePasswordExpired
}

public enum SecondFactorResult: Sendable, Equatable {
    case signedIn(token: String, identity: StaffIdentity, proof: SecondFactorProof)
    case rejected(triesLeft: Int)
    /// No live challenge: it ran out of time or tries, or never was. Start from the password.
    case expired
    case throttled(retryAfter: Int)
}

public enum Reauthentication: Sendable {
    case password(String)
    case code(String)
}

public enum ReauthenticationResult: Sendable, Equatable {
    case confirmed
    case wrong
    case throttled(retryAfter: Int)
}

/// Checks credentials, opens and closes sessions, and audits each step.
public struct SignInService: Sendable {
    public let admins: AdminStore
    public let sessions: SessionStore
    public let audit: AuditLog
    public let throttle: LoginThrottle
    public let twoFactor: TwoFactorStore
    public let challenges: LoginChallengeStore
    /// Events anyone can cause without signing in, counted and written in batches.
    public let unauthenticatedEvents: AuditAggregator
    let hasher: PasswordHasher

    /// Every store on one database, as the panel and the tests both build it.
    public init(database: PanelDatabase, hasher: PasswordHasher, sessionPolicy: SessionPolicy) {
        admins = AdminStore(database: database, hasher: hasher)
        sessions = SessionStore(database: database, policy: sessionPolicy)
        audit = AuditLog(database: database)
        throttle = LoginThrottle(database: database)
        twoFactor = TwoFactorStore(database: database)
        challenges = LoginChallengeStore(database: database)
        unauthenticatedEvents = AuditAggregator(database: database)
        self.hasher = hasher
    }

    public func signIn(
        email: String, password: String, clientAddress: String?, userAgent: String?,
        now: Date = Date()
    ) async throws -> SignInResult {
        let decision = try await reserve(email: email, clientAddress: clientAddress, now: now)
        guard case .proceed(let locks) = decision else { return .throttled(retryAfter: decision.retryAfter) }
        guard let admin = try await admins.find(email: email), admin.disabledAt == nil, let adminID = admin.id else {
            // Hash anyway, so an unknown email costs the same time as a wrong password.
            _ = try await hasher.hash(password)
            try await auditFailure(
                .signInFailed, email: email, target: nil, locks: locks, clientAddress: clientAddress, now: now)
            return .rejected
        }
        guard case .match(let needsRehash) = try await hasher.verify(password, against: admin.passwordHash) else {
            try await auditFailure(
                .signInFailed, email: admin.email, target: AuditTarget.staff(adminID).description, locks: locks,
                clientAddress: clientAddress, now: now)
            return .rejected
        }
        if let expiry = admin.passwordExpiresAt?.date, expiry <= now {
            try await audit.append(
                AuditEntry(
                    actor: nil, actorEmail: admin.email, clientAddress: clientAddress,
                    action: .signInFailed, target: AuditTarget.staff(adminID).description,
                    detail: "one-time password expired"), now: now)
            return .oneTimePasswordExpired
        }
        if needsRehash {
            try await admins.updatePasswordHash(adminID: adminID, to: try await hasher.hash(password))
        }
        if try await twoFactor.status(adminID: adminID).isEnabled {
            // The earlier failure counts stay until the code is right: otherwise a known
            // password would buy unlimited guesses at the code. This right password gives
            // back its own reservation.
            try await throttle.release(email: email, address: clientAddress)
            return .needsSecondFactor(challenge: try await challenges.create(adminID: adminID, now: now))
        }
        try await throttle.recordSuccess(email: email, address: clientAddress)
        let identity = StaffIdentity(
            adminID: adminID, email: admin.email, role: admin.role,
            mustChangePassword: admin.passwordExpiresAt != nil)
        let token = try await sessions.create(
            adminID: adminID, clientAddress: clientAddress, userAgent: userAgent, now: now)
        try await audit.append(
            AuditEntry(
                actor: identity, clientAddress: clientAddress, action: .signIn,
                detail: "password"), now: now)
        return .signedIn(token: token, identity: identity)
    }

    /// The second step: a code from the authenticator app or a recovery code.
    public func completeSecondFactor(
        challenge: String, code: String, clientAddress: String?, userAgent: String?,
        now: Date = Date()
    ) async throws -> SecondFactorResult {
        guard let adminID = try await challenges.adminID(forToken: challenge, now: now),
            let admin = try await admins.find(id: adminID), admin.disabledAt == nil
        else { return .expired }
        let decision = try await reserve(email: admin.email, clientAddress: clientAddress, now: now)
        guard case .proceed(let locks) = decision else { return .throttled(retryAfter: decision.retryAfter) }
        let identity = StaffIdentity(adminID: adminID, email: admin.email, role: admin.role, hasTwoFactor: true)
        guard let proof = try await twoFactor.verify(adminID: adminID, code: code, now: now) else {
            let left = try await challenges.recordFailure(token: challenge)
            try await auditFailure(
                .twoFactorFailed, email: admin.email, target: AuditTarget.staff(adminID).description, locks: locks,
                clientAddress: clientAddress, now: now)
            return .rejected(triesLeft: left)
        }
        try await challenges.delete(token: challenge)
        try await throttle.recordSuccess(email: admin.email, address: clientAddress)
        let token = try await sessions.create(
            adminID: adminID, clientAddress: clientAddress, userAgent: userAgent, now: now)
        let detail =
            switch proof {
            case .authenticatorCode: "password and authenticator code"
            case .recoveryCode(let left): "password and recovery code (\(left) left)"
            }
        if case .recoveryCode = proof {
            try await audit.append(
                AuditEntry(
                    actor: identity, clientAddress: clientAddress, action: .recoveryCodeUsed,
                    target: AuditTarget.staff(adminID).description, detail: detail), now: now)
        }
        try await audit.append(
            AuditEntry(actor: identity, clientAddress: clientAddress, action: .signIn, detail: detail), now: now)
        return .signedIn(token: token, identity: identity, proof: proof)
    }

    /// A change to one's own sign-in (password, recovery codes, turning two-factor off)
    /// asks for the password or a current code again. Wrong answers count like failed
    /// sign-ins, so a borrowed session cannot guess its way through.
    public func confirmAgain(
        _ identity: StaffIdentity, with proof: Reauthentication, clientAddress: String?,
        now: Date = Date()
    ) async throws -> ReauthenticationResult {
        // A blank field is a slip, not a guess: it is refused without counting.
        switch proof {
        case .password(let text), .code(let text): guard !text.isEmpty else { return .wrong }
        }
        let decision = try await reserve(email: identity.email, clientAddress: clientAddress, now: now)
        guard case .proceed(let locks) = decision else { return .throttled(retryAfter: decision.retryAfter) }
        let confirmed: Bool
        let failure: AuditAction
        switch proof {
        case .password(let password):
            guard let admin = try await admins.find(id: identity.adminID) else { return .wrong }
            if case .match = try await hasher.verify(password, against: admin.passwordHash) {
                confirmed = true
            } else {
                confirmed = false
            }
            failure = .signInFailed
        case .code(let code):
            confirmed = try await twoFactor.verify(adminID: identity.adminID, code: code, now: now) != nil
            failure = .twoFactorFailed
        }
        guard confirmed else {
            try await audit.append(
                AuditEntry(
                    actor: identity, clientAddress: clientAddress, action: failure,
                    target: AuditTarget.staff(identity.adminID).description, detail: "confirming a change"), now: now)
            try await auditLocks(locks, email: identity.email, clientAddress: clientAddress, now: now)
            return .wrong
        }
        try await throttle.release(email: identity.email, address: clientAddress)
        return .confirmed
    }

    /// The throttle's word on this attempt (see `LoginThrottle.reserve`); a wait is audited.
    private func reserve(email: String, clientAddress: String?, now: Date) async throws -> ThrottleDecision {
        let decision = try await throttle.reserve(email: email, address: clientAddress, now: now)
        if case .wait = decision {
            // Refused before the hash, so as cheap to send as to refuse: counted, not a row each.
            await unauthenticatedEvents.record(
                .signInThrottled, actorEmail: email, address: clientAddress,
                reason: "refused while a delay or lock runs", now: now)
        }
        return decision
    }

    private func auditFailure(
        _ action: AuditAction, email: String, target: String?, locks: [ThrottleKey], clientAddress: String?,
        now: Date
    ) async throws {
        try await audit.append(
            AuditEntry(actor: nil, actorEmail: email, clientAddress: clientAddress, action: action, target: target),
            now: now)
        try await auditLocks(locks, email: email, clientAddress: clientAddress, now: now)
    }

    /// The locks that a failed attempt's count set.
    private func auditLocks(_ locks: [ThrottleKey], email: String, clientAddress: String?, now: Date) async throws {
        for key in locks {
            try await audit.append(
                AuditEntry(
                    actor: nil, actorEmail: email, clientAddress: clientAddress,
                    action: .signInLocked, target: key.description,
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
