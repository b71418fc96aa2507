import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct Sessions {
    let temp: TemporaryDatabase
    let database: PanelDatabase
    let sessions: SessionStore
    let admin: Admin

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 20)
        database = try await PanelDatabase.open(path: temp.path)
        sessions = SessionStore(
            database: database, policy: SessionPolicy(idleTimeout: 30 * 60, absoluteTimeout: 12 * 3600))
        admin = try await AdminStore(database: database, hasher: PasswordHasher(parameters: fastScryptForTests))
            .create(email: "support@example.com", password: "a long enough password", role: .support)
    }

    @Test func aNewSessionIdentifiesItsAdmin() async throws {
        defer { temp.remove() }
        let token = try await sessions.create(adminID: admin.id!, clientAddress: "127.0.0.1", userAgent: "test")
        #expect(
            try await sessions.identity(forToken: token)
                == StaffIdentity(adminID: admin.id!, email: "support@example.com", role: .support))
    }

    @Test func onlyTheTokensHashIsStored() async throws {
        defer { temp.remove() }
        let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil)
        let stored = try await database.read { try String.fetchAll($0, sql: "SELECT token_hash FROM panel_sessions") }
        #expect(stored.count == 1)
        #expect(stored[0] != token && stored[0].count == 64)
        #expect(token.count == 43)
    }

    @Test func absoluteAndIdleLimitsEndASession() async throws {
        defer { temp.remove() }
        let now = Date()
        let old = try await sessions.create(
            adminID: admin.id!, clientAddress: nil, userAgent: nil, now: now.addingTimeInterval(-13 * 3600))
        #expect(try await sessions.identity(forToken: old, now: now) == nil)
        let idle = try await sessions.create(
            adminID: admin.id!, clientAddress: nil, userAgent: nil, now: now.addingTimeInterval(-31 * 60))
        #expect(try await sessions.identity(forToken: idle, now: now) == nil)
        let count = try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM panel_sessions") }
        #expect(count == 0, "expired sessions are deleted when seen")
    }

    /// A request 59 s after the last touch rewrites nothing (touches are a minute apart), so
    /// the session must still be there 30 minutes after that request, less a second: the idle
    /// limit counts from the last request, never from before it.
    @Test func noSessionEndsBeforeItsIdleLimitFromTheLastRequest() async throws {
        defer { temp.remove() }
        let start = Date()
        let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil, now: start)
        let lastRequest = start.addingTimeInterval(59)
        #expect(try await sessions.identity(forToken: token, now: lastRequest) != nil)
        #expect(try await sessions.identity(forToken: token, now: lastRequest.addingTimeInterval(30 * 60 - 1)) != nil)
        #expect(
            try await sessions.stillAllows(
                token: token, .useOwnAccount, now: lastRequest.addingTimeInterval(30 * 60 - 1)))
    }

    /// Issue 46, finding 14a: the idle limit ran late (the check allowed for touches a minute
    /// apart, so a session idle since its last request lived on past its 30 minutes). It ends
    /// at the last request plus the idle limit, to the second, whether or not that request
    /// rewrote `last_seen_at`; and a stream's check agrees.
    @Test func aSessionEndsAtItsIdleLimitFromTheLastRequestNotLater() async throws {
        defer { temp.remove() }
        let start = Date()
        let touched = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil, now: start)
        let ends = start.addingTimeInterval(30 * 60)
        #expect(try await !sessions.stillAllows(token: touched, .useOwnAccount, now: ends.addingTimeInterval(1)))
        #expect(try await sessions.identity(forToken: touched, now: ends.addingTimeInterval(1)) == nil)

        let untouched = try await sessions.create(
            adminID: admin.id!, clientAddress: nil, userAgent: nil, now: start)
        let lastRequest = start.addingTimeInterval(45)
        #expect(try await sessions.identity(forToken: untouched, now: lastRequest) != nil)
        let limit = lastRequest.addingTimeInterval(30 * 60)
        #expect(try await sessions.stillAllows(token: untouched, .useOwnAccount, now: limit.addingTimeInterval(-1)))
        #expect(try await !sessions.stillAllows(token: untouched, .useOwnAccount, now: limit.addingTimeInterval(1)))
        #expect(try await sessions.identity(forToken: untouched, now: limit.addingTimeInterval(1)) == nil)
    }

    @Test func useKeepsASessionAlive() async throws {
        defer { temp.remove() }
        let start = Date()
        let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil, now: start)
        #expect(try await sessions.identity(forToken: token, now: start.addingTimeInterval(20 * 60)) != nil)
        #expect(try await sessions.identity(forToken: token, now: start.addingTimeInterval(40 * 60)) != nil)
    }

    @Test func aDisabledAccountsSessionsStopWorking() async throws {
        defer { temp.remove() }
        let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil)
        try await database.write { try $0.execute(sql: "UPDATE panel_admins SET disabled_at = '2026-01-01 00:00:00'") }
        #expect(try await sessions.identity(forToken: token) == nil)
    }

    @Test(arguments: [
        "", "short", String(repeating: "A", count: 43), "<script>alert(1)</script>", String(repeating: "é", count: 43),
    ])
    func forgedTokensIdentifyNobody(token: String) async throws {
        defer { temp.remove() }
        _ = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil)
        #expect(try await sessions.identity(forToken: token) == nil)
    }

    @Test func deleteEndsTheSession() async throws {
        defer { temp.remove() }
        let token = try await sessions.create(adminID: admin.id!, clientAddress: nil, userAgent: nil)
        try await sessions.delete(token: token)
        #expect(try await sessions.identity(forToken: token) == nil)
    }
}
