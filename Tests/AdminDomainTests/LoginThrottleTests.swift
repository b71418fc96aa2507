@testable import AdminDomain
import Foundation
import Testing
import TestSupport

@Suite struct SignInThrottling {
    let temp: TemporaryDatabase
    let throttle: LoginThrottle
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    init() async throws {
        temp = try TemporaryDatabase.seeded(users: 5)
        throttle = LoginThrottle(database: try await PanelDatabase.open(path: temp.path))
    }

    @Test func delaysGrowFromTheThirdFailure() async throws {
        defer { temp.remove() }
        var now = start
        for expected in [0.0, 0, 1, 2, 4, 8] {
            try await throttle.recordFailure(email: "a@example.com", address: "10.0.0.1", now: now)
            #expect(try await throttle.wait(email: "a@example.com", address: "10.0.0.1", now: now) == expected)
            now = now.addingTimeInterval(expected)
            #expect(try await throttle.wait(email: "a@example.com", address: "10.0.0.1", now: now) == 0)
        }
    }

    @Test func theTenthFailureLocksForFifteenMinutesThenTheCountStartsAgain() async throws {
        defer { temp.remove() }
        var now = start
        var locked: [String] = []
        for _ in 1...10 {
            now = now.addingTimeInterval(120)
            locked = try await throttle.recordFailure(email: "a@example.com", address: "10.0.0.1", now: now)
        }
        #expect(locked == ["pair:a@example.com|10.0.0.1", "address:10.0.0.1"])
        #expect(try await throttle.wait(email: "a@example.com", address: "10.0.0.1", now: now) == 900)
        #expect(try await throttle.wait(email: "A@Example.com ", address: "10.0.0.1", now: now.addingTimeInterval(600)) == 300)
        now = now.addingTimeInterval(901)
        #expect(try await throttle.wait(email: "a@example.com", address: "10.0.0.1", now: now) == 0)
        try await throttle.recordFailure(email: "a@example.com", address: "10.0.0.1", now: now)
        #expect(try await throttle.wait(email: "a@example.com", address: "10.0.0.1", now: now) == 0, "one failure after the lock is a first failure")
    }

    @Test func anotherAddressCannotLockThisPersonOut() async throws {
        defer { temp.remove() }
        var now = start
        for _ in 1...10 {
            now = now.addingTimeInterval(120)
            try await throttle.recordFailure(email: "staff@example.com", address: "203.0.113.9", now: now)
        }
        #expect(try await throttle.wait(email: "staff@example.com", address: "203.0.113.9", now: now) > 60, "the attacker is locked")
        let fromOffice = try await throttle.wait(email: "staff@example.com", address: "198.51.100.7", now: now)
        #expect(fromOffice == 30, "the account across addresses is slowed, never locked")
        #expect(try await throttle.wait(email: "staff@example.com", address: "198.51.100.7", now: now.addingTimeInterval(30)) == 0)
    }

    @Test func aCorrectPasswordClearsTheCounts() async throws {
        defer { temp.remove() }
        for _ in 1...5 { try await throttle.recordFailure(email: "a@example.com", address: "10.0.0.1", now: start) }
        try await throttle.recordSuccess(email: "a@example.com", address: "10.0.0.1")
        #expect(try await throttle.wait(email: "a@example.com", address: "10.0.0.1", now: start) == 0)
    }

    @Test func unknownAndKnownEmailsAreThrottledAlike() async throws {
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let hasher = PasswordHasher(parameters: fastScryptForTests)
        let service = SignInService(database: database, hasher: hasher, sessionPolicy: SessionPolicy())
        try await service.admins.create(email: "known@example.com", password: "a long enough password", role: .support)
        var results: [String: [SignInResult]] = [:]
        for email in ["known@example.com", "unknown@example.com"] {
            for _ in 1...4 {
                let result = try await service.signIn(email: email, password: "wrong password!", clientAddress: "10.0.0.\(email.count)",
                                                      userAgent: nil, now: start)
                results[email, default: []].append(result)
            }
        }
        #expect(results["known@example.com"] == [.rejected, .rejected, .rejected, .throttled(retryAfter: 1)])
        #expect(results["unknown@example.com"] == results["known@example.com"])
    }
}
