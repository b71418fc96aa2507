import Foundation
import GRDB

public enum AdminStoreError: Error, Equatable, CustomStringConvertible {
    case invalidEmail
    case emailTaken
    case weakPassword(String)
    case notFound(String)
    case lastActiveAdmin

    public var description: String {
        switch self {
        case .invalidEmail: "that is not an email address"
        case .emailTaken: "an account with that email already exists"
        case .weakPassword(let reason): reason
        case .notFound(let email): "no staff account has the email \(email)"
        case .lastActiveAdmin: "this is the last active admin: create or enable another admin first"
        }
    }
}

/// Staff accounts in `panel_admins`.
public struct AdminStore: Sendable {
    let database: PanelDatabase
    let hasher: PasswordHasher

    public init(database: PanelDatabase, hasher: PasswordHasher) {
        self.database = database
        self.hasher = hasher
    }

    /// How long a generated one-time password works before its owner must have changed it.
    public static let oneTimePasswordLifetime: TimeInterval = 24 * 3600

    /// An account without an audit row: the demo's first admin and test fixtures. Staff
    /// create accounts through `StaffAdministration`, which audits.
    @discardableResult
    public func create(
        email rawEmail: String, password: String, role: Role, oneTime: Bool = false,
        now: Date = Date()
    ) async throws -> Admin {
        try await create(email: rawEmail, password: password, role: role, oneTime: oneTime, now: now, audit: nil)
    }

    /// The policy and the hash come first, outside the write transaction (a hash takes a
    /// fraction of a second); the row and its audit row then commit together.
    /// `oneTime`: the password was generated for someone else (the staff page), so it must be
    /// changed at the first sign-in and expires after `oneTimePasswordLifetime`.
    func create(
        email rawEmail: String, password: String, role: Role, oneTime: Bool, now: Date,
        audit: AuditDraft?
    ) async throws -> Admin {
        let email = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.looksLikeEmail(email) else { throw AdminStoreError.invalidEmail }
        if let reason = await PasswordPolicy.problem(with: password, email: email) {
            throw AdminStoreError.weakPassword(reason)
        }
        if try await find(email: email) != nil { throw AdminStoreError.emailTaken }
        let hash = try await hasher.hash(password)
        let admin = Admin(
            id: nil, email: email, passwordHash: hash, role: role,
            createdAt: PanelTime(now), disabledAt: nil,
            passwordExpiresAt: oneTime ? Self.oneTimeExpiry(now) : nil)
        do {
            return try await database.write { db in
                let inserted = try admin.inserted(db)
                try audit?.insert(target: inserted, now: now, in: db)
                return inserted
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw AdminStoreError.emailTaken
        }
    }

    public func find(email: String) async throws -> Admin? {
        try await find(.email(email))
    }

    public func find(id: Int64) async throws -> Admin? {
        try await find(.id(id))
    }

    public func activeAdminCount() async throws -> Int {
        try await database.read { db in
            try Admin.filter(Admin.Columns.disabledAt == nil).fetchCount(db)
        }
    }

    func find(_ account: AccountReference) async throws -> Admin? {
        try await database.read { db in try account.request.fetchOne(db) }
    }

    /// Applies `edit` in one transaction, refuses to leave no active admin, ends the
    /// account's sessions when its rights shrink or change, and writes the audit row.
    func change(
        _ account: AccountReference, audit: AuditDraft,
        _ edit: @escaping @Sendable (inout Admin) -> Void
    ) async throws -> Admin {
        try await database.write { db in
            guard let before = try account.request.fetchOne(db) else {
                throw AdminStoreError.notFound(account.description)
            }
            var admin = before
            edit(&admin)
            let wasActiveAdmin = before.role == .admin && before.disabledAt == nil
            let isActiveAdmin = admin.role == .admin && admin.disabledAt == nil
            if wasActiveAdmin, !isActiveAdmin {
                let others = try Admin.filter(
                    Admin.Columns.disabledAt == nil && Admin.Columns.role == Role.admin.rawValue
                        && Admin.Columns.id != admin.id
                ).fetchCount(db)
                guard others > 0 else { throw AdminStoreError.lastActiveAdmin }
            }
            try audit.insert(target: admin, in: db)
            guard admin != before else { return admin }
            try admin.update(db)
            if admin.role != before.role || admin.disabledAt != nil {
                _ = try SessionStore.deleteAll(adminID: admin.id, keepToken: nil, in: db)
            }
            return admin
        }
    }

    /// A new password for the account, checked against the policy and hashed outside the
    /// write transaction; inside it, `finish` ends sessions and writes the audit row.
    /// `oneTime`: it must be changed at the next sign-in and expires after a day.
    /// `replacingOneTime`: its owner is choosing their own, which must not be the one-time
    /// password an admin handed over (the admin would still know it).
    func setPassword<Result: Sendable>(
        _ account: AccountReference, to password: String, oneTime: Bool, now: Date,
        replacingOneTime: Bool = false,
        finish: @escaping @Sendable (Admin, Database) throws -> Result
    ) async throws -> Result {
        guard let admin = try await find(account), let id = admin.id else {
            throw AdminStoreError.notFound(account.description)
        }
        if let reason = await PasswordPolicy.problem(with: password, email: admin.email) {
            throw AdminStoreError.weakPassword(reason)
        }
        // Compared with the stored hash (on the hasher's threads), never with text kept anywhere:
        // as typed, and folded (lower case, no spaces), which is how the panel generates them.
        if replacingOneTime, admin.passwordExpiresAt != nil {
            for candidate in Set([password, Self.foldedOneTime(password)]) {
                if case .match = try await hasher.verify(candidate, against: admin.passwordHash) {
                    throw AdminStoreError.weakPassword(Self.sameAsOneTime)
                }
            }
        }
        let hash = try await hasher.hash(password)
        let expires = oneTime ? Self.oneTimeExpiry(now) : nil
        return try await database.write { db in
            try db.execute(
                sql: "UPDATE panel_admins SET password_hash = ?, password_expires_at = ? WHERE id = ?",
                arguments: [hash, expires, id])
            return try finish(admin, db)
        }
    }

    func updatePasswordHash(adminID: Int64, to hash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_admins SET password_hash = ? WHERE id = ?", arguments: [hash, adminID])
        }
    }

    /// A password in lower case without its spaces: the one-time passwords the panel makes are
    /// lower-case letters and digits, so the one in capitals, or spaced out as it was read
    /// aloud, folds back to it and is refused as the new password as the same one would be.
    static func foldedOneTime(_ password: String) -> String {
        String(String.UnicodeScalarView(password.unicodeScalars.filter { !$0.properties.isWhitespace })).lowercased()
    }

    /// The refusal of a one-time password chosen again as one's own.
    public static let sameAsOneTime = "the new password must differ from the one-time password you were given"

    static func oneTimeExpiry(_ now: Date) -> PanelTime {
        PanelTime(now.addingTimeInterval(oneTimePasswordLifetime))
    }

    static func looksLikeEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && email.count <= 254 && !email.contains(where: { $0.isWhitespace })
            // A NUL would store the address cut short; no control character is typed in one.
            && TypedText.controlCharacter(in: email) == nil
    }
}
