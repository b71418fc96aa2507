import Foundation
import GRDB

/// What two-factor's confirmation hands back: the recovery codes, shown once, and the
/// session's new token (nil when the change was made without a session).
public struct TwoFactorEnabled: Sendable, Equatable {
    public let recoveryCodes: [String]
    public let sessionToken: String?
}

/// One's own sign-in: password, second factor, recovery codes, other sessions. The caller
/// has confirmed the password or a current code first (`SignInService.confirmAgain`); each
/// use case then makes its change, ends the sessions it must, rotates the caller's token
/// where its reach grew, and writes its audit row, in one write transaction.
public struct AccountSecurity: Sendable {
    let database: PanelDatabase
    let admins: AdminStore
    let twoFactor: TwoFactorStore

    public init(database: PanelDatabase, hasher: PasswordHasher) {
        self.database = database
        admins = AdminStore(database: database, hasher: hasher)
        twoFactor = TwoFactorStore(database: database)
    }

    /// A new password against the policy, and not the one-time password it replaces; every
    /// other session ends and this one continues under the token returned.
    public func changePassword(
        _ identity: StaffIdentity, to password: String, session token: String,
        from address: String?
    ) async throws -> String {
        let audit = AuditDraft(actor: .staff(identity, from: address), action: .passwordChanged, detail: nil)
        return try await admins.setPassword(
            .id(identity.adminID), to: password, oneTime: false, now: Date(),
            replacingOneTime: true
        ) { admin, db in
            _ = try SessionStore.deleteAll(adminID: admin.id, keepToken: token, in: db)
            try audit.insert(target: admin, in: db)
            return try SessionStore.rotate(token: token, in: db)
        }
    }

    /// Turns two-factor on when `code` is the pending key's current code; nil for a wrong
    /// code. More reach than before: the caller's token is replaced and every session
    /// opened with the password alone ends.
    public func enableTwoFactor(
        _ identity: StaffIdentity, code: String, session token: String?, from address: String?,
        now: Date = Date()
    ) async throws -> TwoFactorEnabled? {
        let adminID = identity.adminID
        guard let step = try await twoFactor.pendingStep(adminID: adminID, code: code, now: now) else { return nil }
        let audit = AuditDraft(actor: .staff(identity, from: address), action: .twoFactorEnabled, detail: nil)
        return try await database.write { db in
            // A request that raced this one confirmed first: its codes stand.
            guard try TwoFactorStore.markConfirmed(adminID: adminID, step: step, now: now, in: db) else {
                throw TwoFactorError.alreadyEnabled
            }
            let codes = try TwoFactorStore.replaceRecoveryCodes(adminID: adminID, now: now, in: db)
            let fresh = try token.map { try SessionStore.rotate(token: $0, in: db) }
            _ = try SessionStore.deleteAll(adminID: adminID, keepToken: fresh, in: db)
            try audit.insert(targetAdminID: adminID, now: now, in: db)
            return TwoFactorEnabled(recoveryCodes: codes, sessionToken: fresh)
        }
    }

    /// A fresh set of ten; the old ones stop working.
    public func newRecoveryCodes(_ identity: StaffIdentity, from address: String?) async throws -> [String] {
        let audit = AuditDraft(actor: .staff(identity, from: address), action: .recoveryCodesRegenerated, detail: nil)
        return try await database.write { db in
            let codes = try TwoFactorStore.replaceRecoveryCodes(adminID: identity.adminID, now: Date(), in: db)
            try audit.insert(targetAdminID: identity.adminID, in: db)
            return codes
        }
    }

    /// Turns two-factor off; every other session ends. Whether the role allows it is the
    /// caller's policy to check.
    public func disableTwoFactor(_ identity: StaffIdentity, session token: String, from address: String?) async throws {
        let audit = AuditDraft(actor: .staff(identity, from: address), action: .twoFactorDisabled, detail: nil)
        try await database.write { db in
            try TwoFactorStore.remove(adminID: identity.adminID, in: db)
            _ = try SessionStore.deleteAll(adminID: identity.adminID, keepToken: token, in: db)
            try audit.insert(targetAdminID: identity.adminID, in: db)
        }
    }

    /// "Sign out everywhere else"; returns how many sessions ended.
    public func endOtherSessions(_ identity: StaffIdentity, session token: String, from address: String?) async throws
        -> Int
    {
        let actor = AuditActor.staff(identity, from: address)
        return try await database.write { db in
            let ended = try SessionStore.deleteAll(adminID: identity.adminID, keepToken: token, in: db)
            try AuditLog.insert(actor.entry(.otherSessionsEnded, target: nil, detail: "\(ended)"), in: db)
            return ended
        }
    }
}
