import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// A job behind a `ChangeGate` runs the first time, then only after another connection's
/// commit (seen through `data_version`), a publish on the campaigns' feed, or its longest
/// wait; and never for its own writer's reads alone.
@Suite(.timeLimit(.minutes(20))) struct ChangeGateTests {
    @Test func aGateOpensOnAnotherConnectionsCommitOrAPublishAndOnNothingElse() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        // No caching between looks here, so each look reads `data_version` afresh.
        let watch = DatabaseWatch(database: database, interval: .zero)
        let changes = CampaignChanges()
        // Its longest wait an hour away: only a change can open it here, however slow the machine.
        let gate = ChangeGate(watch: watch, changes: changes, atLeastEvery: .seconds(3_600))
        #expect(await gate.shouldRun(), "the first time")
        #expect(await gate.shouldRun() == false, "nothing changed")
        // The panel's own reads move nothing the watch sees.
        _ = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") }
        #expect(await gate.shouldRun() == false, "a read of its own")
        // Another connection (the backend) commits.
        let backend = try DatabaseQueue(path: temp.path)
        try await backend.write { db in
            try db.execute(sql: "UPDATE users SET locale = 'zz' WHERE id = (SELECT MIN(id) FROM users)")
        }
        #expect(await gate.shouldRun(), "another connection's commit")
        #expect(await gate.shouldRun() == false, "and only once")
        changes.publish(5)
        #expect(await gate.shouldRun(), "a publish of this process")
        #expect(await gate.shouldRun() == false)
    }

    @Test func aGateOpensOnceItsLongestWaitHasPassed() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20)
        defer { temp.remove() }
        let watch = DatabaseWatch(database: try await PanelDatabase.open(path: temp.path), interval: .zero)
        let gate = ChangeGate(watch: watch, atLeastEvery: .milliseconds(50))
        #expect(await gate.shouldRun(), "the first time")
        try await Task.sleep(for: .milliseconds(100))
        #expect(await gate.shouldRun(), "nothing changed, but its longest wait has passed")
    }
}
