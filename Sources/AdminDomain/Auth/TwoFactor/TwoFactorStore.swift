import Foundation
import GRDB

/// How a second factor was proved.
public enum SecondFactorProof: Sendable, Equatable {
    case authenticatorCode
    case recoveryCode(left: Int)
}

public struct TwoFactorStatus: Sendable, Equatable {
    public let enabledAt: PanelTime?
    public let recoveryCodesLeft: Int
    public var isEnabled: Bool { enabledAt != nil }
}

public enum TwoFactorError: Error, Equatable {
    case alreadyEnabled
    case notStarted
}

/// TOTP keys (`panel_two_factor`) and recovery codes (`panel_recovery_codes`).
/// Each accepted code is spent in the same statement that checks it, so two requests
/// racing with one code cannot both pass.
public struct TwoFactorStore: Sendable {
    let database: PanelDatabase

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func status(adminID: Int64) async throws -> TwoFactorStatus {
        try await database.read { db in
            let key = try PanelTwoFactor.fetchOne(db, key: adminID)
            let left = try PanelRecoveryCode.all().unused(of: adminID).fetchCount(db)
            return TwoFactorStatus(enabledAt: key?.confirmedAt, recoveryCodesLeft: left)
        }
    }

    /// The key being enrolled, if enrolment has begun and is not confirmed: read only, for
    /// the enrolment page's GET.
    public func pendingSecret(adminID: Int64) async throws -> String? {
        try await database.read { db in
            try PanelTwoFactor.filter(key: adminID).confirmed(false).fetchOne(db)?.secret
        }
    }

    /// Starts enrolment: makes the key, or returns the one already begun, so a second click
    /// does not invalidate what the phone already scanned.
    public func beginEnrolment(adminID: Int64) async throws -> String {
        try await database.write { db in
            if let begun = try PanelTwoFactor.fetchOne(db, key: adminID) {
                guard begun.confirmedAt == nil else { throw TwoFactorError.alreadyEnabled }
                return begun.secret
            }
            let key = PanelTwoFactor(adminID: adminID, secret: TOTPCode.newSecret())
            try key.insert(db)
            return key.secret
        }
    }

    /// Checks a six-digit code or a recovery code and spends it.
    public func verify(adminID: Int64, code: String, now: Date = Date()) async throws -> SecondFactorProof? {
        if let recovery = RecoveryCode.normalized(code) {
            return try await database.write { db in
                let spent = try PanelRecoveryCode.all().unused(of: adminID)
                    .filter(PanelRecoveryCode.Columns.codeHash == RecoveryCode.hash(normalized: recovery))
                    .updateAll(db, PanelRecoveryCode.Columns.usedAt.set(to: PanelTime(now)))
                guard spent == 1 else { return nil }
                return .recoveryCode(left: try PanelRecoveryCode.all().unused(of: adminID).fetchCount(db))
            }
        }
        let secret = try await database.read { db in
            try PanelTwoFactor.filter(key: adminID).confirmed(true).fetchOne(db)?.secret
        }
        guard let secret, let step = TOTPCode.matchingStep(code, secret: secret, now: now) else { return nil }
        // A code is good once: a step at or before the last one accepted is a replay.
        return try await database.write { db in
            try db.execute(
                sql:
                    "UPDATE panel_two_factor SET last_step = ? WHERE admin_id = ? "
                    + "AND (last_step IS NULL OR last_step < ?)",
                arguments: [step, adminID, step])
            return db.changesCount == 1 ? .authenticatorCode : nil
        }
    }

    /// Turns two-factor off (or abandons an enrolment) and deletes the recovery codes,
    /// inside the caller's transaction.
    static func remove(adminID: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM panel_two_factor WHERE admin_id = ?", arguments: [adminID])
        try db.execute(sql: "DELETE FROM panel_recovery_codes WHERE admin_id = ?", arguments: [adminID])
    }

    /// Marks the pending key confirmed at `step`; false when it was confirmed already.
    static func markConfirmed(adminID: Int64, step: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute(
            sql:
                "UPDATE panel_two_factor SET confirmed_at = ?, last_step = ? WHERE admin_id = ? "
                + "AND confirmed_at IS NULL",
            arguments: [PanelTime(now), step, adminID])
        return db.changesCount == 1
    }

    /// The pending key's step for `code`: nil for a wrong code; throws when nothing was begun
    /// or two-factor is on already.
    func pendingStep(adminID: Int64, code: String, now: Date) async throws -> Int64? {
        let pending = try await database.read { db in try PanelTwoFactor.fetchOne(db, key: adminID) }
        guard let pending else { throw TwoFactorError.notStarted }
        guard pending.confirmedAt == nil else { throw TwoFactorError.alreadyEnabled }
        return TOTPCode.matchingStep(code, secret: pending.secret, now: now)
    }

    /// A fresh set of ten in the caller's transaction; the old codes stop working.
    static func replaceRecoveryCodes(adminID: Int64, now: Date, in db: Database) throws -> [String] {
        let codes = (0..<RecoveryCode.countPerSet).map { _ in RecoveryCode.generate() }
        try db.execute(sql: "DELETE FROM panel_recovery_codes WHERE admin_id = ?", arguments: [adminID])
        for code in codes {
            guard let normalized = RecoveryCode.normalized(code) else { continue }
            try PanelRecoveryCode(
                adminID: adminID, codeHash: RecoveryCode.hash(normalized: normalized), createdAt: PanelTime(now)
            ).insert(db)
        }
        return codes
    }
}

/// Who must use a second factor: admins always; everyone when the panel is started so.
public struct TwoFactorPolicy: Sendable, Equatable {
    public var requiredForAll: Bool

    public init(requiredForAll: Bool = false) {
        self.requiredForAll = requiredForAll
    }

    public func isRequired(for role: Role) -> Bool {
        requiredForAll || role == .admin
    }
}
