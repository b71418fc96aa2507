import Foundation
import GRDB

/// A staff account as the staff page and `admin list` show it.
public struct StaffAccount: Sendable, Equatable {
    public let admin: Admin
    public let hasTwoFactor: Bool
}

/// What admins do to staff accounts, from the staff page or the command line alike. Each
/// use case makes its change, ends the sessions it must and writes its audit row in one
/// write transaction: all of it happens, or none of it.
public struct StaffAdministration: Sendable {
    let database: PanelDatabase
    let admins: AdminStore

    public init(database: PanelDatabase, hasher: PasswordHasher) {
        self.database = database
        admins = AdminStore(database: database, hasher: hasher)
    }

    /// Every account, by email, with whether its second factor is on.
    /// `byCreation`: in creation order (the id, the primary key) rather than by email (its
    /// unique index); `descending` turns either round. Both are read in index order.
    public func accounts(byCreation: Bool = false, descending: Bool = false) async throws -> [StaffAccount] {
        try await database.read { db in
            let withTwoFactor = Set(
                try Int64.fetchAll(db, sql: "SELECT admin_id FROM panel_two_factor WHERE confirmed_at IS NOT NULL"))
            let column = byCreation ? Admin.Columns.id : Admin.Columns.email
            return try Admin.order(descending ? column.desc : column.asc).fetchAll(db).map { admin in
                StaffAccount(admin: admin, hasTwoFactor: admin.id.map(withTwoFactor.contains) ?? false)
            }
        }
    }

    /// `oneTime`: a password generated for someone else, to be changed at the first sign-in.
    @discardableResult
    public func create(
        email: String, password: String, role: Role, oneTime: Bool, by actor: AuditActor,
        now: Date = Date()
    ) async throws -> Admin {
        try await admins.create(
            email: email, password: password, role: role, oneTime: oneTime, now: now,
            audit: AuditDraft(actor: actor, action: .adminCreated, detail: "role=\(role.rawValue)"))
    }

    /// Ends the account's sessions: the new rights start from a fresh sign-in.
    @discardableResult
    public func changeRole(_ account: AccountReference, to role: Role, by actor: AuditActor) async throws -> Admin {
        try await admins.change(
            account, audit: AuditDraft(actor: actor, action: .roleChanged, detail: "role=\(role.rawValue)")
        ) {
            $0.role = role
        }
    }

    /// Ends the account's sessions at once. The last active admin stays.
    @discardableResult
    public func disable(_ account: AccountReference, by actor: AuditActor, now: Date = Date()) async throws -> Admin {
        try await admins.change(account, audit: AuditDraft(actor: actor, action: .adminDisabled, detail: nil)) {
            admin in
            admin.disabledAt = admin.disabledAt ?? PanelTime(now)
        }
    }

    @discardableResult
    public func enable(_ account: AccountReference, by actor: AuditActor) async throws -> Admin {
        try await admins.change(account, audit: AuditDraft(actor: actor, action: .adminEnabled, detail: nil)) {
            $0.disabledAt = nil
        }
    }

    /// A new password, checked against the policy; every session of the account ends.
    @discardableResult
    public func resetPassword(
        _ account: AccountReference, to password: String, oneTime: Bool, by actor: AuditActor,
        now: Date = Date()
    ) async throws -> Admin {
        try await admins.setPassword(account, to: password, oneTime: oneTime, now: now) { admin, db in
            _ = try SessionStore.deleteAll(adminID: admin.id, keepToken: nil, in: db)
            try AuditDraft(actor: actor, action: .passwordReset, detail: nil).insert(target: admin, now: now, in: db)
            return admin
        }
    }

    /// A lost phone: the key and recovery codes go, and so do the account's sessions; it
    /// enrols again at the next sign-in.
    @discardableResult
    public func resetTwoFactor(_ account: AccountReference, by actor: AuditActor) async throws -> Admin {
        try await onAccount(account, audit: AuditDraft(actor: actor, action: .twoFactorReset, detail: nil)) { id, db in
            try TwoFactorStore.remove(adminID: id, in: db)
            _ = try SessionStore.deleteAll(adminID: id, keepToken: nil, in: db)
        }
    }

    /// Ends one account's sessions, all but `keepingSession` (the admin's own, when it is
    /// their own account).
    @discardableResult
    public func endSessions(_ account: AccountReference, keepingSession token: String?, by actor: AuditActor)
        async throws -> Admin
    {
        try await onAccount(account, audit: AuditDraft(actor: actor, action: .sessionsEnded, detail: nil)) { id, db in
            _ = try SessionStore.deleteAll(adminID: id, keepToken: token, in: db)
        }
    }

    /// Every session but `keepingSession`; returns how many ended.
    @discardableResult
    public func endAllSessions(keepingSession token: String?, by actor: AuditActor) async throws -> Int {
        try await database.write { db in
            let ended = try SessionStore.deleteAll(adminID: nil, keepToken: token, in: db)
            try AuditLog.insert(actor.entry(.sessionsEnded, target: "all", detail: "\(ended)"), in: db)
            return ended
        }
    }

    /// Finds the account, applies `change` and writes the audit row, in one transaction.
    private func onAccount(
        _ account: AccountReference, audit: AuditDraft,
        _ change: @escaping @Sendable (Int64, Database) throws -> Void
    ) async throws -> Admin {
        try await database.write { db in
            guard let admin = try account.request.fetchOne(db), let id = admin.id else {
                throw AdminStoreError.notFound(account.description)
            }
            try change(id, db)
            try audit.insert(target: admin, in: db)
            return admin
        }
    }
}
