import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Two staff accounts with sessions, the support one with two-factor on: what every use
/// case acts on.
struct StaffFixture {
    let temp: TemporaryDatabase
    let database: PanelDatabase
    let staff: StaffAdministration
    let account: AccountSecurity
    let sessions: SessionStore
    let boss: StaffIdentity
    let help: StaffIdentity
    let bossToken: String
    /// Two sessions of the support account: the one a self-service change keeps, and another.
    let helpToken: String
    let helpOtherToken: String

    static let password = "a long enough password"
    static let address = "192.0.2.7"

    static func make() async throws -> StaffFixture {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        let database = try await PanelDatabase.open(path: temp.path)
        let hasher = PasswordHasher(parameters: fastScryptForTests)
        let admins = AdminStore(database: database, hasher: hasher)
        let sessions = SessionStore(database: database, policy: SessionPolicy())
        let bossID = try #require(
            try await admins.create(email: "boss@example.com", password: password, role: .admin).id)
        let helpID = try #require(
            try await admins.create(email: "help@example.com", password: password, role: .support).id)
        let help = StaffIdentity(adminID: helpID, email: "help@example.com", role: .support)
        let account = AccountSecurity(database: database, hasher: hasher)
        let secret = try await TwoFactorStore(database: database).beginEnrolment(adminID: helpID)
        _ = try #require(
            try await account.enableTwoFactor(
                help, code: TOTPCode.code(secret: secret, step: TOTPCode.step(at: Date())),
                session: nil, from: nil))
        func session(_ id: Int64) async throws -> String {
            try await sessions.create(adminID: id, clientAddress: nil, userAgent: nil)
        }
        return StaffFixture(
            temp: temp, database: database, staff: StaffAdministration(database: database, hasher: hasher),
            account: account,
            sessions: sessions, boss: StaffIdentity(adminID: bossID, email: "boss@example.com", role: .admin),
            help: help,
            bossToken: try await session(bossID), helpToken: try await session(helpID),
            helpOtherToken: try await session(helpID))
    }

    var bossActor: AuditActor { .staff(boss, from: Self.address) }

    /// Every row of the panel's account tables, as text: equal before and after means nothing changed.
    func panelRows() async throws -> [String] {
        try await database.read { db in
            try ["panel_admins", "panel_sessions", "panel_two_factor", "panel_recovery_codes", "panel_audit_log"]
                .flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map { "\(table) \($0)" }
                }
        }
    }

    /// The newest audit row as "actor action target detail address".
    func lastAudit() async throws -> String? {
        try await database.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT actor_email || ' ' || action || ' ' || COALESCE(target, '-') || ' ' || COALESCE(detail, '-')
                           || ' ' || COALESCE(client_address, '-')
                    FROM panel_audit_log ORDER BY id DESC LIMIT 1
                    """)
        }
    }

    func isSignedIn(_ token: String) async throws -> Bool {
        try await sessions.identity(forToken: token) != nil
    }

    /// Makes one step of every use case fail from now on, as a full disk or a constraint
    /// would: triggers added through a connection of the test's own.
    func breakStep(_ step: UseCaseStep) throws {
        let queue = try DatabaseQueue(path: temp.path)
        try queue.write { db in
            for (index, event) in step.events.enumerated() {
                try db.execute(
                    sql: """
                        CREATE TRIGGER test_failure_\(index) BEFORE \(event)
                        BEGIN SELECT RAISE(ABORT, 'test: this step fails'); END
                        """)
            }
        }
        try queue.close()
    }
}

/// The writes a use case is made of.
enum UseCaseStep: String, CaseIterable, Sendable {
    case change, audit, sessions

    var events: [String] {
        switch self {
        case .change:
            [
                "INSERT ON panel_admins", "UPDATE ON panel_admins", "UPDATE ON panel_two_factor",
                "DELETE ON panel_two_factor",
                "INSERT ON panel_recovery_codes",
            ]
        case .audit: ["INSERT ON panel_audit_log"]
        case .sessions: ["DELETE ON panel_sessions", "UPDATE ON panel_sessions"]
        }
    }
}

struct UseCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The steps it takes: breaking any of them must leave no trace of the others.
    let steps: [UseCaseStep]
    var prepare: @Sendable (StaffFixture) async throws -> Void = { _ in }
    let run: @Sendable (StaffFixture) async throws -> Void
    /// The audit row it writes, as `StaffFixture.lastAudit` shows it (ids filled in by the test).
    let audit: @Sendable (StaffFixture) -> String
    /// Which sessions are left: boss, help, help's other.
    let sessionsLeft: [Bool]
    var testDescription: String { name }

    static let all: [UseCase] = [
        UseCase(
            name: "create", steps: [.change, .audit],
            run: { f in
                _ = try await f.staff.create(
                    email: "new@example.com", password: StaffFixture.password, role: .marketing,
                    oneTime: true, by: f.bossActor)
            },
            audit: { f in "boss@example.com admin_created staff:\(f.help.adminID + 1) role=marketing 192.0.2.7" },
            sessionsLeft: [true, true, true]),
        UseCase(
            name: "change role", steps: [.change, .audit, .sessions],
            run: { f in _ = try await f.staff.changeRole(.id(f.help.adminID), to: .marketing, by: f.bossActor) },
            audit: { f in "boss@example.com role_changed staff:\(f.help.adminID) role=marketing 192.0.2.7" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "disable", steps: [.change, .audit, .sessions],
            run: { f in _ = try await f.staff.disable(.email("help@example.com"), by: .commandLine) },
            audit: { f in "cli admin_disabled staff:\(f.help.adminID) - -" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "enable", steps: [.change, .audit],
            prepare: { f in _ = try await f.staff.disable(.id(f.help.adminID), by: f.bossActor) },
            run: { f in _ = try await f.staff.enable(.id(f.help.adminID), by: f.bossActor) },
            audit: { f in "boss@example.com admin_enabled staff:\(f.help.adminID) - 192.0.2.7" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "reset password", steps: [.change, .audit, .sessions],
            run: { f in
                _ = try await f.staff.resetPassword(
                    .id(f.help.adminID), to: "a new long password", oneTime: true,
                    by: f.bossActor)
            },
            audit: { f in "boss@example.com password_reset staff:\(f.help.adminID) - 192.0.2.7" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "reset two-factor", steps: [.change, .audit, .sessions],
            run: { f in _ = try await f.staff.resetTwoFactor(.email("help@example.com"), by: .commandLine) },
            audit: { f in "cli two_factor_reset staff:\(f.help.adminID) - -" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "end one account's sessions", steps: [.audit, .sessions],
            run: { f in
                _ = try await f.staff.endSessions(.id(f.help.adminID), keepingSession: f.bossToken, by: f.bossActor)
            },
            audit: { f in "boss@example.com sessions_ended staff:\(f.help.adminID) - 192.0.2.7" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "end every other session", steps: [.audit, .sessions],
            run: { f in _ = try await f.staff.endAllSessions(keepingSession: f.bossToken, by: f.bossActor) },
            audit: { _ in "boss@example.com sessions_ended all 2 192.0.2.7" },
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "change own password", steps: [.change, .audit, .sessions],
            run: { f in
                _ = try await f.account.changePassword(
                    f.help, to: "a new long password", session: f.helpToken,
                    from: StaffFixture.address)
            },
            audit: { f in "help@example.com password_changed staff:\(f.help.adminID) - 192.0.2.7" },
            // The kept session goes on under a new token: the old one no longer signs in.
            sessionsLeft: [true, false, false]),
        UseCase(
            name: "turn two-factor on", steps: [.change, .audit, .sessions],
            prepare: { f in _ = try await TwoFactorStore(database: f.database).beginEnrolment(adminID: f.boss.adminID)
            },
            run: { f in
                let secret = try #require(
                    try await TwoFactorStore(database: f.database).pendingSecret(adminID: f.boss.adminID))
                _ = try #require(
                    try await f.account.enableTwoFactor(
                        f.boss, code: TOTPCode.code(secret: secret, step: TOTPCode.step(at: Date())),
                        session: f.bossToken,
                        from: StaffFixture.address))
            },
            audit: { f in "boss@example.com two_factor_enabled staff:\(f.boss.adminID) - 192.0.2.7" },
            sessionsLeft: [false, true, true]),
        UseCase(
            name: "new recovery codes", steps: [.change, .audit],
            run: { f in _ = try await f.account.newRecoveryCodes(f.help, from: StaffFixture.address) },
            audit: { f in "help@example.com recovery_codes_regenerated staff:\(f.help.adminID) - 192.0.2.7" },
            sessionsLeft: [true, true, true]),
        UseCase(
            name: "turn two-factor off", steps: [.change, .audit, .sessions],
            run: { f in try await f.account.disableTwoFactor(f.help, session: f.helpToken, from: StaffFixture.address)
            },
            audit: { f in "help@example.com two_factor_disabled staff:\(f.help.adminID) - 192.0.2.7" },
            sessionsLeft: [true, true, false]),
        UseCase(
            name: "sign out everywhere else", steps: [.audit, .sessions],
            run: { f in
                _ = try await f.account.endOtherSessions(f.help, session: f.helpToken, from: StaffFixture.address)
            },
            audit: { f in "help@example.com other_sessions_ended - 1 192.0.2.7" },
            sessionsLeft: [true, true, false]),
    ]
}

@Suite(.timeLimit(.minutes(20))) struct UseCaseTransactions {
    @Test(arguments: UseCase.all)
    func eachUseCaseWritesItsAuditRowAndEndsItsSessions(_ useCase: UseCase) async throws {
        let fixture = try await StaffFixture.make()
        defer { fixture.temp.remove() }
        try await useCase.prepare(fixture)
        try await useCase.run(fixture)
        #expect(try await fixture.lastAudit() == useCase.audit(fixture))
        var left: [Bool] = []
        for token in [fixture.bossToken, fixture.helpToken, fixture.helpOtherToken] {
            left.append(try await fixture.isSignedIn(token))
        }
        #expect(left == useCase.sessionsLeft)
    }

    @Test(arguments: UseCase.all)
    func aFailureInAnyStepLeavesNoneOfThem(_ useCase: UseCase) async throws {
        for step in useCase.steps {
            let fixture = try await StaffFixture.make()
            defer { fixture.temp.remove() }
            try await useCase.prepare(fixture)
            let before = try await fixture.panelRows()
            try fixture.breakStep(step)
            await #expect(throws: DatabaseError.self, "\(useCase.name) with its \(step.rawValue) step failing") {
                try await useCase.run(fixture)
            }
            #expect(
                try await fixture.panelRows() == before, "\(useCase.name): a failing \(step.rawValue) step left a trace"
            )
        }
    }
}
