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
        case let .weakPassword(reason): reason
        case let .notFound(email): "no staff account has the email \(email)"
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

    /// `oneTime`: the password was generated for someone else (the staff page), so it must be
    /// changed at the first sign-in and expires after `oneTimePasswordLifetime`.
    @discardableResult
    public func create(email rawEmail: String, password: String, role: Role, oneTime: Bool = false,
                       now: Date = Date()) async throws -> Admin {
        let email = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.looksLikeEmail(email) else { throw AdminStoreError.invalidEmail }
        if let reason = await PasswordPolicy.problem(with: password, email: email) { throw AdminStoreError.weakPassword(reason) }
        if try await find(email: email) != nil { throw AdminStoreError.emailTaken }
        let hash = try await hasher.hash(password)
        let admin = Admin(id: nil, email: email, passwordHash: hash, role: role,
                          createdAt: SQLiteTime.string(now), disabledAt: nil,
                          passwordExpiresAt: oneTime ? Self.oneTimeExpiry(now) : nil)
        do {
            return try await database.write { db in try admin.inserted(db) }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw AdminStoreError.emailTaken
        }
    }

    public func find(email: String) async throws -> Admin? {
        try await database.read { db in
            try Admin.filter(Admin.Columns.email == email.trimmingCharacters(in: .whitespacesAndNewlines))
                .fetchOne(db)
        }
    }

    public func find(id: Int64) async throws -> Admin? {
        try await database.read { db in try Admin.filter(Admin.Columns.id == id).fetchOne(db) }
    }

    public func activeAdminCount() async throws -> Int {
        try await database.read { db in
            try Admin.filter(Admin.Columns.disabledAt == nil).fetchCount(db)
        }
    }

    public func list() async throws -> [Admin] {
        try await database.read { db in try Admin.order(Admin.Columns.email).fetchAll(db) }
    }

    /// Disables the account and ends its sessions at once. The last active admin stays.
    @discardableResult
    public func disable(email: String, now: Date = Date()) async throws -> Admin {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await change(Admin.filter(Admin.Columns.email == email), missing: email) { admin in
            admin.disabledAt = admin.disabledAt ?? SQLiteTime.string(now)
        }
    }

    @discardableResult
    public func disable(id: Int64, now: Date = Date()) async throws -> Admin {
        try await change(Admin.filter(Admin.Columns.id == id), missing: "#\(id)") { admin in
            admin.disabledAt = admin.disabledAt ?? SQLiteTime.string(now)
        }
    }

    @discardableResult
    public func enable(id: Int64) async throws -> Admin {
        try await change(Admin.filter(Admin.Columns.id == id), missing: "#\(id)") { $0.disabledAt = nil }
    }

    /// A new role ends the account's sessions, so the new rights start from a fresh sign-in.
    @discardableResult
    public func changeRole(id: Int64, to role: Role) async throws -> Admin {
        try await change(Admin.filter(Admin.Columns.id == id), missing: "#\(id)") { $0.role = role }
    }

    /// Applies `edit` in one transaction, refuses to leave no active admin, and ends the
    /// account's sessions when its rights shrink or change.
    private func change(_ request: QueryInterfaceRequest<Admin>, missing: String,
                        _ edit: @escaping @Sendable (inout Admin) -> Void) async throws -> Admin {
        try await database.write { db in
            guard let before = try request.fetchOne(db) else { throw AdminStoreError.notFound(missing) }
            var admin = before
            edit(&admin)
            let wasActiveAdmin = before.role == .admin && before.disabledAt == nil
            let isActiveAdmin = admin.role == .admin && admin.disabledAt == nil
            if wasActiveAdmin, !isActiveAdmin {
                let others = try Admin.filter(Admin.Columns.disabledAt == nil && Admin.Columns.role == Role.admin.rawValue
                                              && Admin.Columns.id != admin.id).fetchCount(db)
                guard others > 0 else { throw AdminStoreError.lastActiveAdmin }
            }
            guard admin != before else { return admin }
            try admin.update(db)
            if admin.role != before.role || admin.disabledAt != nil {
                try db.execute(sql: "DELETE FROM panel_sessions WHERE admin_id = ?", arguments: [admin.id])
            }
            return admin
        }
    }

    /// Sets a new password (checked against the policy) and ends every session of the account.
    public func resetPassword(email: String, to password: String, oneTime: Bool = false) async throws {
        guard let admin = try await find(email: email) else {
            throw AdminStoreError.notFound(email.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try await resetPassword(admin, to: password, oneTime: oneTime, now: Date())
    }

    public func resetPassword(id: Int64, to password: String, oneTime: Bool = false, now: Date = Date()) async throws {
        guard let admin = try await find(id: id) else { throw AdminStoreError.notFound("#\(id)") }
        try await resetPassword(admin, to: password, oneTime: oneTime, now: now)
    }

    private func resetPassword(_ admin: Admin, to password: String, oneTime: Bool, now: Date) async throws {
        guard let id = admin.id else { throw AdminStoreError.notFound(admin.email) }
        if let reason = await PasswordPolicy.problem(with: password, email: admin.email) { throw AdminStoreError.weakPassword(reason) }
        let hash = try await hasher.hash(password)
        let expires = oneTime ? Self.oneTimeExpiry(now) : nil
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_admins SET password_hash = ?, password_expires_at = ? WHERE id = ?",
                           arguments: [hash, expires, id])
            try db.execute(sql: "DELETE FROM panel_sessions WHERE admin_id = ?", arguments: [id])
        }
    }

    /// One's own change, once the caller has confirmed the current password: every other
    /// session of the account ends; the caller's own (`keepingSession`) stays, for the
    /// caller to rotate.
    public func changePassword(id: Int64, to password: String, keepingSession token: String) async throws {
        guard let admin = try await find(id: id) else { throw AdminStoreError.notFound("#\(id)") }
        if let reason = await PasswordPolicy.problem(with: password, email: admin.email) { throw AdminStoreError.weakPassword(reason) }
        let hash = try await hasher.hash(password)
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_admins SET password_hash = ?, password_expires_at = NULL WHERE id = ?",
                           arguments: [hash, id])
            try db.execute(sql: "DELETE FROM panel_sessions WHERE admin_id = ? AND token_hash <> ?",
                           arguments: [id, SessionStore.hash(token)])
        }
    }

    func updatePasswordHash(adminID: Int64, to hash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_admins SET password_hash = ? WHERE id = ?", arguments: [hash, adminID])
        }
    }

    static func oneTimeExpiry(_ now: Date) -> String {
        SQLiteTime.string(now.addingTimeInterval(oneTimePasswordLifetime))
    }

    static func looksLikeEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && email.count <= 254 && !email.contains(where: { $0.isWhitespace })
    }
}
