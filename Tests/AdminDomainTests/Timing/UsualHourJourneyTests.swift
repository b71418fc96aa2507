import Foundation
import GRDB
import Testing

@testable import AdminDomain

/// Issue 35 in journeys: an entry goes at the user's usual hour within a day of entering,
/// never after a lapsing subscription's end (then at the journey's own time, or not at all),
/// and a control share is drawn per entry to go at the journey's own time. Users as in
/// `UsualHourFreezeTests` (own hour `id % 24` UTC for seven in ten).
@Suite(.timeLimit(.minutes(20))) struct UsualHourJourneyTests {
    static let now = Int64(ImpactFixture.launchTime.timeIntervalSince1970)  // 2026-11-18 12:00:00 UTC

    @Test func entriesGoAtTheirHourBeforeTheSubscriptionEndsAndTheControlAtTheWindow() async throws {
        let fixture = try await UsualHourFreezeTests.make(reachable: 3_000)
        defer { fixture.remove() }
        let journeys = Journeys(campaigns: fixture.campaigns)
        let draft = JourneyDraft(
            campaign: CampaignDraft(
                title: "Renew", body: "Your premium ends soon", timing: .usualHour(controlPercent: 20)),
            rules: JourneyRules(trigger: .subscriptionEnding(3), sendAt: .window(from: 9, to: 21)))
        let id = try await journeys.create(draft, by: .commandLine, now: ImpactFixture.launchTime)
        // Each user's subscription ends at 18:00 UTC today: hours 12-18 can go, later ones cannot.
        let end = "2026-11-18 18:00:00"
        let crossings = (1...3_000).map { TriggerCrossing(userID: Int64($0), occurrence: end) }
        let admissions = try await fixture.database.read { db in
            let plan = try #require(try JourneyPlan.load(id, in: db))
            return try JourneyAdmission.read(
                crossings, plan: plan, audience: Audience(), defaultTimeZone: "UTC", now: Self.now, in: db)
        }
        var control = 0
        var drawn = 0
        for admission in admissions where admission.arm != "holdout" {
            let user = admission.crossing.userID
            // The journey's own time: the window is open at 12:00, so at once; quiet hours
            // 10:00-14:00 (every hundredth from 12) move it to 14:00.
            let fixed = user % 100 == 12 ? "2026-11-18 14:00:00" : "2026-11-18 12:00:00"
            drawn += 1
            if admission.timing == "control" {
                control += 1
                #expect(admission.due == fixed, "control user \(user)")
                continue
            }
            #expect(admission.timing == "usual")
            guard user % 10 < 7 else { continue }
            let hour = Int(user % 24)
            if hour == 12 && user % 100 == 12 {
                // Quiet 10:00-14:00 moves it to 14:00: before the end.
                #expect(admission.due == "2026-11-18 14:00:00" && admission.moved == .quiet, "user \(user)")
            } else if (12...18).contains(hour) {
                #expect(
                    admission.due == String(format: "2026-11-18 %02d:00:00", hour) && admission.moved == nil,
                    "user \(user)")
            } else {
                // After the end: the journey's own time.
                #expect(admission.due == fixed && admission.moved == .deadline, "user \(user)")
            }
            #expect(admission.basis == .own)
        }
        let share = Double(control) / Double(drawn)
        #expect(abs(share - 0.2) <= 0.02, "control share \(share)")
        // Entered once each, with the timing kept on the entry and counted.
        let outcome = try await fixture.database.write { db in
            try JourneyEntries.enter(
                journeyID: id, admissions, reentryDays: nil, dailyLimit: nil, now: Self.now, in: db)
        }
        #expect(outcome.entered == 3_000)
        let (timed, counted) = try await fixture.sql { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_journey_entries WHERE journey_id = ? AND timing IS NOT NULL",
                    arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT SUM(users) FROM panel_timing_counts WHERE campaign_id = ?", arguments: [id]) ?? -1
            )
        }
        #expect(timed == drawn && counted == drawn)

        // The report: users whose entry's push was due over a day ago are judged for opens;
        // a third of them opened within a day.
        try await fixture.backendWrite { db in
            try db.execute(
                sql: "UPDATE panel_journey_entries SET opened_in_day = 1 WHERE journey_id = ? AND user_id % 3 = 0",
                arguments: [id])
        }
        let dayLater = Date(timeIntervalSince1970: TimeInterval(Self.now + 86_400 + 3_600))
        let report = try await JourneyReport.build(journey: id, now: dayLater, in: fixture.database)
        let expected = try await fixture.sql { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT timing, COUNT(*) AS n, SUM(COALESCE(due_at,
                          entered_at) <= '2026-11-18 13:00:00') AS judged,
                               SUM(COALESCE(due_at, entered_at) <= '2026-11-18 13:00:00' AND user_id % 3 = 0) AS opened
                        FROM panel_journey_entries WHERE journey_id = ? AND timing IS NOT NULL GROUP BY timing
                        """, arguments: [id]
                ).map { ($0["timing"] as String, [$0["n"] as Int, $0["judged"] as Int, $0["opened"] as Int]) })
        }
        let timing = report.total.timing
        #expect([timing.usual.users, timing.usual.openJudged, timing.usual.openedInDay] == expected["usual"])
        #expect([timing.control.users, timing.control.openJudged, timing.control.openedInDay] == expected["control"])
        #expect(timing.usual.openJudged < timing.usual.users, "pushes due after 13:00 have not had their day")
    }
}
