import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct Sweeping {
    @Test func expiredSessionsChallengesAndStaleThrottleRowsGoAndLiveOnesStay() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let policy = SessionPolicy(idleTimeout: 30 * 60, absoluteTimeout: 12 * 3600)
        let admin = try await AdminStore(database: database, hasher: PasswordHasher(parameters: fastScryptForTests))
            .create(email: "support@example.com", password: "a long enough password", role: .support)
        let adminID = try #require(admin.id)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let sessions = SessionStore(database: database, policy: policy)
        // More than one batch of sessions past their absolute limit.
        for _ in 0..<1_203 {
            _ = try await sessions.create(
                adminID: adminID, clientAddress: nil, userAgent: nil, now: now.addingTimeInterval(-13 * 3600))
        }
        let idle = try await sessions.create(
            adminID: adminID, clientAddress: nil, userAgent: nil, now: now.addingTimeInterval(-31 * 60))
        let live = try await sessions.create(
            adminID: adminID, clientAddress: nil, userAgent: nil, now: now.addingTimeInterval(-29 * 60))
        let challenges = LoginChallengeStore(database: database)
        // Newest first: making a challenge or counting a failure sweeps what is older than it.
        let liveChallenge = try await challenges.create(adminID: adminID, now: now.addingTimeInterval(-60))
        _ = try await challenges.create(adminID: adminID, now: now.addingTimeInterval(-6 * 60))
        let throttle = LoginThrottle(database: database)
        try await throttle.recordFailure(
            email: "new@example.com", address: "10.0.0.2", now: now.addingTimeInterval(-60))
        try await throttle.recordFailure(
            email: "old@example.com", address: "10.0.0.1", now: now.addingTimeInterval(-16 * 60))

        let report = try await ExpiredRowSweeper(database: database, sessionPolicy: policy).sweep(now: now)

        #expect(report.sessions == 1_204)
        #expect(report.challenges == 1)
        #expect(report.throttleRows == 3, "the old failure's three keys")
        #expect(try await sessions.identity(forToken: live, now: now) != nil)
        #expect(try await sessions.identity(forToken: idle, now: now) == nil)
        #expect(try await challenges.adminID(forToken: liveChallenge, now: now) == adminID)
        let keys = try await database.read { db in try ThrottleEntry.fetchAll(db).map(\.key.description).sorted() }
        #expect(keys == ["account:new@example.com", "address:10.0.0.2", "pair:new@example.com|10.0.0.2"])
        #expect(
            try await ExpiredRowSweeper(database: database, sessionPolicy: policy).sweep(now: now)
                == ExpiredRowSweeper.Report())
    }
}
