import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, the report: the holdout drawn per entry, the goal judged once each entry's window
/// has closed, and the figures equal to counts written here in SQL over the stored entries and
/// the app's events.
@Suite(.timeLimit(.minutes(20))) struct JourneyReportTests {
    @Test func theReportCountsWhatTheEntriesAndEventsSay() async throws {
        let now = JourneyClaimTests.now
        let seconds = JourneyClaimTests.seconds
        let temp = try await TemporaryDatabase.seeded(users: 5, now: now)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        let journeys = Journeys(database: database)
        var content = CampaignDraft(title: "Back?", body: "b")
        content.experiment.holdoutPercent = 50
        content.experiment.goal = .anyActivity
        content.experiment.goalDays = 1
        let journey = try await journeys.create(
            JourneyDraft(
                campaign: content, rules: JourneyRules(trigger: .inactiveDays(30), sendAt: JourneyClaimTests.window)),
            by: .commandLine, now: now.addingTimeInterval(-120))
        try await journeys.activate(journey, by: .commandLine, now: now.addingTimeInterval(-60))
        var users: [Int64] = []
        for index in 0..<40 {
            users.append(
                try await JourneyClaimTests.addUser("r\(index)", crossedAt: seconds - 50 + Int64(index), in: queue))
        }
        _ = try await JourneyRunner(journeys: journeys).tick(now: now)
        let claimed = try await DeliveryOutbox(database: database).claim(limit: 500, now: now.addingTimeInterval(30))
        try await DeliveryOutbox(database: database).record(
            claimed.map { ($0, .accepted(messageID: "m\($0.rowID)")) }, now: now.addingTimeInterval(31))
        // Every third user used the app within the day; one only after it.
        try await queue.write { [users] db in
            for (index, user) in users.enumerated() where index % 3 == 0 {
                try db.execute(
                    sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                    arguments: [user, TriggerScanTests.text(seconds + 3_600)])
            }
            try db.execute(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                arguments: [users[1], TriggerScanTests.text(seconds + 86_400 + 60)])
        }
        // Before the window closes nothing is judged; after, everything drawn is.
        _ = try await JourneyRunner(journeys: journeys).tick(now: now.addingTimeInterval(3_600 * 2))
        #expect(try await JourneyReport.build(journey: journey, in: database).total.sentGroup.judged == 0)
        _ = try await JourneyRunner(journeys: journeys).tick(now: now.addingTimeInterval(86_400 + 120))
        let report = try await JourneyReport.build(journey: journey, in: database)
        let list = users.map(String.init).joined(separator: ",")
        let expected = try queue.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS entered,
                           SUM(e.state = 'held_out') AS held, SUM(e.state = 'sent') AS sent,
                           SUM(e.arm <> 'holdout') AS sentGroup, SUM(e.arm = 'holdout') AS holdout,
                           SUM(e.arm <> 'holdout' AND EXISTS (SELECT 1 FROM activity_events a
                             WHERE a.user_id = e.user_id
                                 AND a.created_at > e.entered_at
                                   AND a.created_at <= datetime(e.entered_at, '+1 day'))) AS sentConverted,
                           SUM(e.arm = 'holdout' AND EXISTS (SELECT 1 FROM activity_events a WHERE a.user_id = e.user_id
                                 AND a.created_at > e.entered_at
                                   AND a.created_at <= datetime(e.entered_at, '+1 day'))) AS holdoutConverted
                    FROM panel_journey_entries e WHERE e.journey_id = ? AND e.user_id IN (\(list))
                    """, arguments: [journey])!
        }
        let total = report.total
        // Only our users crossed: the seeded ones were active long before or after.
        #expect(total.entered == expected["entered"] as Int)
        #expect(total.entered == 40)
        #expect(total.heldOut == expected["held"] as Int)
        #expect(total.heldOut > 5 && total.heldOut < 35)
        #expect(total.sent == expected["sent"] as Int)
        #expect(total.sentGroup.judged == expected["sentGroup"] as Int)
        #expect(total.holdout.judged == expected["holdout"] as Int)
        #expect(total.sentGroup.converted == expected["sentConverted"] as Int)
        #expect(total.holdout.converted == expected["holdoutConverted"] as Int)
        #expect(total.sentGroup.converted + total.holdout.converted == 14)
        #expect(report.days.map(\.day) == ["2026-11-18"])
        #expect(total.lift != nil)
        _ = claimed

        // Drawn per entry: evaluating again draws the same arms (nobody re-enters).
        let arms = try await queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT arm FROM panel_journey_entries WHERE journey_id = ? ORDER BY id", arguments: [journey])
        }
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ?",
                arguments: [seconds - 60, journey])
        }
        _ = try await JourneyRunner(journeys: journeys).tick(now: now)
        #expect(
            try await queue.read { db in
                try String.fetchAll(
                    db, sql: "SELECT arm FROM panel_journey_entries WHERE journey_id = ? ORDER BY id",
                    arguments: [journey])
            }
                == arms)
    }
}
