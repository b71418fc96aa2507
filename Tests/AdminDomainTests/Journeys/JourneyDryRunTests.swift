import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, the dry run: who would enter in the next 24 hours, counted against SQL written
/// here from the trigger's definition, with the exclusions by reason.
@Suite(.timeLimit(.minutes(20))) struct JourneyDryRunTests {
    @Test func theNextDaysCrossingsAreCountedAndSorted() async throws {
        let now = JourneyClaimTests.now
        let seconds = JourneyClaimTests.seconds
        let temp = try await TemporaryDatabase.seeded(users: 5, now: now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        let soon = try await JourneyClaimTests.addUser("soon", crossedAt: seconds + 3_600, in: queue)
        let pushOff = try await JourneyClaimTests.addUser("pushoff", crossedAt: seconds + 7_200, in: queue)
        _ = try await JourneyClaimTests.addUser("tomorrow", crossedAt: seconds + 86_400 + 60, in: queue)
        _ = try await JourneyClaimTests.addUser("crossed", crossedAt: seconds - 10, in: queue)
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE notification_settings SET push_enabled = 0 WHERE user_id = ?", arguments: [pushOff])
        }
        let journeys = Journeys(database: database)
        let id = try await journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "Back?", body: "b"), rules: JourneyRules(trigger: .inactiveDays(30))),
            by: .commandLine, now: now)
        let run = try await JourneyDryRun.run(
            journey: id, audience: Audience(), defaultTimeZone: "UTC", now: now, in: database)
        // The definition: a backend-form last activity in (now − 30 days, now − 29 days].
        let expected = try await queue.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM users WHERE length(last_active_at) = 19
                      AND last_active_at > datetime(?, 'unixepoch', '-30 days')
                      AND last_active_at <= datetime(?, 'unixepoch', '-29 days')
                    """, arguments: [seconds, seconds]) ?? -1
        }
        #expect(run.crossing == expected)
        #expect(run.crossing >= 2)
        #expect(run.exclusions["push_off"] == 1)
        #expect(
            run.alreadyEntered + run.outsideConditions + run.exclusions.values.reduce(0, +) + run.heldOut + run.toSend
                == run.crossing)
        #expect(run.samples.map(\.userID).contains(soon))
        #expect(!run.samples.map(\.userID).contains(pushOff))
    }
}
