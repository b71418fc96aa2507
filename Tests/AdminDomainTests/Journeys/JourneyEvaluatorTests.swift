import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, an evaluation on a controlled clock: its entries equal the trigger's SQL of the
/// window since the last evaluation; again, nobody enters twice; a clock gone back enters
/// nobody and moves nothing; a first evaluation only marks where the journey begins.
@Suite(.timeLimit(.minutes(20))) struct JourneyEvaluatorTests {
    static let now = TriggerScanTests.now, previous = TriggerScanTests.previous

    @Test func anEvaluationEntersTheWindowsCrossingsOnce() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        _ = try TriggerScanTests.addUsers("last_active_at", days: 30, to: queue)
        let journey = try await JourneyEntriesTests.journey(queue, reentryDays: nil, status: "sending")
        let evaluator = JourneyEvaluator(database: database)
        func cursor() async throws -> Int64? {
            try await queue.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT evaluated_until FROM panel_journeys WHERE campaign_id = ?", arguments: [journey])
            }
        }
        // The first evaluation, at `previous`, marks the start and enters nobody.
        #expect(try await evaluator.evaluate(journeyID: journey, now: Self.previous) == .init())
        #expect(try await cursor() == Self.previous)

        let expected = try TriggerScanTests.expected("last_active_at", days: 30, in: queue)
        #expect(!expected.isEmpty)
        #expect(try await evaluator.evaluate(journeyID: journey, now: Self.now).entered == expected.count)
        let entries = try await queue.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT user_id, occurrence FROM panel_journey_entries WHERE journey_id = ? "
                    + "ORDER BY occurrence, user_id",
                arguments: [journey]
            ).map { TriggerCrossing(userID: $0["user_id"], occurrence: $0["occurrence"]) }
        }
        #expect(entries == expected)
        #expect(try await cursor() == Self.now)

        // The clock goes back a minute: nothing is read, the cursor stays.
        #expect(try await evaluator.evaluate(journeyID: journey, now: Self.now - 60) == .init())
        #expect(try await cursor() == Self.now)
        // A crash before the cursor moved: the window read again enters nobody twice.
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ?",
                arguments: [Self.previous, journey])
        }
        #expect(
            try await evaluator.evaluate(journeyID: journey, now: Self.now) == .init(alreadyEntered: expected.count))
    }
}
