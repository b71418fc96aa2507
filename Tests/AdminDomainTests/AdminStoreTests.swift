import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct StaffAccounts {
    let temp: TemporaryDatabase
    let database: PanelDatabase
    let admins: AdminStore
    let staff: StaffAdministration
    let sessions: SessionStore
    let password = "a long enough password"

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 5)
        database = try await PanelDatabase.open(path: temp.path)
        admins = AdminStore(database: database, hasher: PasswordHasher(parameters: fastScryptForTests))
        staff = StaffAdministration(database: database, hasher: PasswordHasher(parameters: fastScryptForTests))
        sessions = SessionStore(database: database, policy: SessionPolicy())
    }

    @Test func disablingEndsTheSessionsAtOnce() async throws {
        defer { temp.remove() }
        try await admins.create(email: "boss@example.com", password: password, role: .admin)
        let support = try await admins.create(email: "help@example.com", password: password, role: .support)
        let token = try await sessions.create(adminID: support.id!, clientAddress: nil, userAgent: nil)
        let disabled = try await staff.disable(.email(" help@example.com "), by: .commandLine)
        #expect(disabled.disabledAt != nil)
        #expect(try await sessions.identity(forToken: token) == nil)
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM panel_sessions") } == 0)
    }

    @Test func theLastActiveAdminCannotBeDisabled() async throws {
        defer { temp.remove() }
        try await admins.create(email: "one@example.com", password: password, role: .admin)
        try await admins.create(email: "help@example.com", password: password, role: .support)
        await #expect(throws: AdminStoreError.lastActiveAdmin) {
            try await staff.disable(.email("one@example.com"), by: .commandLine)
        }
        try await admins.create(email: "two@example.com", password: password, role: .admin)
        try await staff.disable(.email("one@example.com"), by: .commandLine)
        await #expect(throws: AdminStoreError.lastActiveAdmin) {
            try await staff.disable(.email("two@example.com"), by: .commandLine)
        }
        await #expect(throws: AdminStoreError.notFound("nobody@example.com")) {
            try await staff.disable(.email("nobody@example.com"), by: .commandLine)
        }
    }

    /// Issue 32, finding 9: a new staff member (or one whose password an admin reset) could
    /// choose the one-time password as their own, which the admin who handed it over knows.
    @Test func theOneTimePasswordCannotBeChosenAgainAsOnesOwn() async throws {
        defer { temp.remove() }
        let hasher = PasswordHasher(parameters: fastScryptForTests)
        let account = AccountSecurity(database: database, hasher: hasher)
        let oneTime = "handed over by an admin 7"
        let created = try await staff.create(
            email: "new@example.com", password: oneTime, role: .support, oneTime: true, by: .commandLine)
        try await admins.create(email: "reset@example.com", password: password, role: .support)
        _ = try await staff.resetPassword(.email("reset@example.com"), to: oneTime, oneTime: true, by: .commandLine)
        let reset = try #require(try await admins.find(email: "reset@example.com"))
        for admin in [created, reset] {
            let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil)
            // The same password, and the same after NFKC (a full-width digit), are refused.
            for typed in [oneTime, "handed over by an admin \u{FF17}"] {
                await #expect(
                    throws: AdminStoreError.weakPassword(
                        "the new password must differ from the one-time password you were given"),
                    "\(admin.email)"
                ) {
                    _ = try await account.changePassword(admin.identity, to: typed, session: token, from: nil)
                }
            }
            let unchanged = try #require(try await admins.find(id: admin.id!))
            #expect(
                unchanged.passwordExpiresAt != nil && unchanged.passwordHash == admin.passwordHash, "nothing changed")
            _ = try await account.changePassword(admin.identity, to: "a password of my own", session: token, from: nil)
            let own = try #require(try await admins.find(id: admin.id!))
            #expect(own.passwordExpiresAt == nil)
            #expect(
                try await hasher.verify("a password of my own", against: own.passwordHash) == .match(needsRehash: false)
            )
        }
        let changes = try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'password_changed'")
        }
        #expect(changes == 2, "a refused change writes no row")
    }

    @Test func aPasswordResetEndsEverySessionAndOnlyTheNewPasswordWorks() async throws {
        defer { temp.remove() }
        let hasher = PasswordHasher(parameters: fastScryptForTests)
        let admin = try await admins.create(email: "one@example.com", password: password, role: .admin)
        let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil)
        await #expect(throws: AdminStoreError.weakPassword("the password must have at least 12 characters")) {
            try await staff.resetPassword(.email("one@example.com"), to: "short", oneTime: false, by: .commandLine)
        }
        #expect(try await sessions.identity(forToken: token) != nil, "a refused reset changes nothing")
        try await staff.resetPassword(
            .email("ONE@example.com"), to: "another long password", oneTime: false, by: .commandLine)
        #expect(try await sessions.identity(forToken: token) == nil)
        let stored = try #require(try await admins.find(email: "one@example.com")).passwordHash
        #expect(try await hasher.verify(password, against: stored) == .mismatch)
        #expect(try await hasher.verify("another long password", against: stored) == .match(needsRehash: false))
    }

    @Test func theListIsSortedByEmail() async throws {
        defer { temp.remove() }
        for email in ["c@example.com", "a@example.com", "b@example.com"] {
            try await admins.create(email: email, password: password, role: .support)
        }
        #expect(try await staff.accounts().map(\.admin.email) == ["a@example.com", "b@example.com", "c@example.com"])
    }
}
