import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 35: a launch at each user's usual hour, through the freeze, the outbox and the
/// report. 20,000 reachable users in UTC: seven in ten have 6 days of activity at the hour
/// `id % 24` (their own hour), two in ten have 2 days (peers' or everyone's), one in ten
/// none; every hundredth with hour 12 keeps quiet hours 10:00-14:00. Expectations are written
/// here from those rules and from SQL over the rows, not from the panel's planning code.
@Suite(.timeLimit(.minutes(20))) struct UsualHourFreezeTests {
    static let launch = ImpactFixture.launchTime  // 2026-11-18 12:00:00 UTC

    static func make(reachable: Int = 20_000) async throws -> ImpactFixture {
        let fixture = try await ImpactFixture.make(reachable: reachable, unreachable: 200)
        try await fixture.backendWrite { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE day(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM day WHERE n < 6)
                    INSERT INTO activity_events (user_id, kind, created_at)
                    SELECT u.id, 'login', strftime('%Y-%m-%d ', '2026-11-18',
                      '-' || day.n || ' days') || printf('%02d:20:00', u.id % 24)
                    FROM users u JOIN day ON day.n <= CASE WHEN u.id % 10 < 7 THEN 6 WHEN u.id % 10 < 9 THEN 2
                      ELSE 0 END;
                    INSERT OR REPLACE INTO notification_settings
                      (user_id, push_enabled, marketing_opt_in, quiet_start, quiet_end)
                    SELECT id, 1, 1, '10:00', '14:00' FROM users WHERE id % 100 = 12;
                    """)
        }
        _ = try await UsualHourRefresh(database: fixture.database, defaultTimeZone: "UTC").run(now: launch)
        return fixture
    }

    func launch(_ fixture: ImpactFixture, control: Int, holdout: Int = 10) async throws -> Int64 {
        let draft = CampaignDraft(
            title: "Hi", body: "At your hour",
            experiment: CampaignExperiment(holdoutPercent: holdout, goal: .anyActivity),
            timing: .usualHour(controlPercent: control))
        let id = try await fixture.campaigns.create(draft, by: .commandLine, now: Self.launch)
        try await fixture.campaigns.beginAndFreeze(id, by: .commandLine, now: Self.launch)
        return id
    }

    @Test func controlSharesHoursFallbacksAndNobodyTwice() async throws {
        let fixture = try await Self.make()
        defer { fixture.remove() }
        let ten = try await launch(fixture, control: 10)
        let thirty = try await launch(fixture, control: 30)

        for (id, percent) in [(ten, 10), (thirty, 30)] {
            let groups = try await fixture.sql { db in
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(
                        db,
                        sql: """
                            SELECT COALESCE(timing, arm) AS g, COUNT(*) AS n FROM panel_campaign_members
                              WHERE campaign_id = ? GROUP BY 1
                            """, arguments: [id]
                    ).map { ($0["g"] as String, $0["n"] as Int) })
            }
            let sent = groups["usual", default: 0] + groups["control", default: 0]
            #expect(groups["holdout", default: 0] > 0 && sent + groups["holdout", default: 0] == 20_000, "\(groups)")
            let share = Double(groups["control", default: 0]) / Double(sent)
            #expect(abs(share - Double(percent) / 100) <= 0.02, "control share \(share) for \(percent)%")
        }

        // Every usual-hour user with days of their own goes at the next start of their hour
        // (UTC), now for hour 12; quiet hours 10:00-14:00 move hour 12 to 14:00.
        let own = try await fixture.sql { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT q.user_id, q.due_at FROM panel_deliveries q JOIN panel_campaign_members m
                      ON m.campaign_id = q.campaign_id AND m.user_id = q.user_id
                    WHERE q.campaign_id = ? AND m.timing = 'usual' AND q.user_id % 10 < 7
                    """, arguments: [ten]
            ).map { ($0["user_id"] as Int64, $0["due_at"] as String) }
        }
        #expect(own.count > 10_000)
        for (user, due) in own {
            let hour = Int(user % 24)
            var expected = hour >= 12 ? "2026-11-18 " : "2026-11-19 "
            expected += String(format: "%02d:00:00", hour)
            if hour == 12 { expected = user % 100 == 12 ? "2026-11-18 14:00:00" : "2026-11-18 12:00:00" }
            #expect(due == expected, "user \(user)")
            if due != expected { break }
        }
        // The control goes at the launch (no quiet hours but the hundredths').
        let controlDue = try await fixture.sql { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT q.due_at FROM panel_deliveries q JOIN panel_campaign_members m
                      ON m.campaign_id = q.campaign_id AND m.user_id = q.user_id
                    WHERE q.campaign_id = ? AND m.timing = 'control' AND q.user_id % 100 <> 12
                    """, arguments: [ten])
        }
        #expect(controlDue == ["2026-11-18 12:00:00"])

        // The counts kept with the freeze equal the members, by basis as the rules say.
        let (counted, bases) = try await fixture.sql { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT SUM(users) FROM panel_timing_counts WHERE campaign_id = ? AND timing = 'usual'",
                    arguments: [ten]) ?? -1,
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(
                        db,
                        sql: """
                            SELECT basis, SUM(users) AS n FROM panel_timing_counts WHERE campaign_id = ?
                              AND timing = 'usual' GROUP BY basis
                            """, arguments: [ten]
                    ).map { ($0["basis"] as String, $0["n"] as Int) })
            )
        }
        let expectedOwn = try await fixture.sql { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) "
                    + "FROM panel_campaign_members WHERE campaign_id = ? AND timing = 'usual' AND user_id % 10 < 7",
                arguments: [ten]) ?? -1
        }
        let usualMembers = try await fixture.sql { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? AND timing = 'usual'",
                arguments: [ten]) ?? -1
        }
        #expect(counted == usualMembers)
        #expect(bases["own"] == expectedOwn)
        // Peers (platform and locale en-US, 20 or more each) cover everyone else.
        #expect(
            bases["peers", default: 0] == usualMembers - expectedOwn && bases["everyone"] == nil
                && bases["none"] == nil, "\(bases)")
        let summary = try #require(
            try await fixture.database.read { db in try TimingSummary.load(campaign: ten, in: db) })
        #expect(summary.usual == usualMembers && summary.usualPerHour.reduce(0, +) == usualMembers)
        #expect(summary.moved[.quiet, default: 0] > 0)

        // Nobody twice: each delivery claimed once over the next day and more, one due time per user.
        let (deliveries, split) = try await fixture.sql { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id IN (?, ?)",
                    arguments: [ten, thirty]) ?? -1,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM (SELECT campaign_id, user_id FROM panel_deliveries GROUP BY 1, 2
                          HAVING COUNT(DISTINCT due_at) > 1)
                        """) ?? -1
            )
        }
        #expect(split == 0)
        var claimed: [ClaimedDelivery] = []
        for hour in stride(from: 0, through: 27, by: 1) {
            claimed += try await fixture.claimAll(now: Self.launch.addingTimeInterval(Double(hour) * 3_600 + 60))
        }
        #expect(claimed.count == deliveries && Set(claimed.map(\.rowID)).count == deliveries)
    }

    @Test func theReportComparesTheUsualHourWithTheControl() async throws {
        let fixture = try await Self.make()
        defer { fixture.remove() }
        let id = try await launch(fixture, control: 20)
        _ = try await fixture.claimAll(now: Self.launch.addingTimeInterval(86_400 + 60))
        // Users whose id ends in 3 open: within the day (the poller reads it an hour after the send).
        try await fixture.backendWrite { db in
            try db.execute(
                sql: """
                    INSERT INTO push_receipts (delivery_id, event, created_at)
                    SELECT 'c' || campaign_id || '-' || id, 'opened', '2026-11-19 12:00:00' FROM panel_deliveries
                    WHERE campaign_id = ? AND user_id % 10 = 3
                    """, arguments: [id])
        }
        let readAt = Self.launch.addingTimeInterval(86_400 + 3_600)
        try await ReceiptPoller(database: fixture.database).poll(now: readAt)
        // An hour after the last send, pushes due the day before have had their day, the
        // rest not yet: only the former count for opens.
        let early = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await early.refresh(now: readAt)
        let partial = try #require(try await early.report(id)?.timing)
        let (dueEarly, usualUsers) = try await fixture.sql { db in
            (
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? AND timing = 'usual'
                          AND due_at <= '2026-11-18 13:00:00'
                        """, arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? AND timing = 'usual'",
                    arguments: [id]) ?? -1
            )
        }
        #expect(partial.usual.openJudged == dueEarly && dueEarly > 0 && dueEarly < usualUsers)
        // The goal window (3 days) is open: no goal is judged yet in either group.
        #expect(partial.usual.judged == 0 && partial.control.judged == 0 && partial.goalLift == nil)
        // Two days on, everyone's day is over.
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.launch.addingTimeInterval(2 * 86_400 + 60))
        let timing = try #require(try await tracker.report(id)?.timing)
        #expect(timing.usual.openJudged == timing.usual.users && timing.control.openJudged == timing.control.users)
        let closed = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await closed.refresh(now: Self.launch.addingTimeInterval(3 * 86_400 + 60))
        let judged = try #require(try await closed.report(id)?.timing)
        #expect(judged.usual.judged == judged.usual.users && judged.goalLift != nil, "the window has closed")
        let expected = try await fixture.sql { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT timing, COUNT(*) AS n, SUM(user_id % 10 = 3) AS opened FROM panel_campaign_members
                        WHERE campaign_id = ? AND timing IS NOT NULL GROUP BY timing
                        """, arguments: [id]
                ).map { ($0["timing"] as String, [$0["n"] as Int, $0["opened"] as Int]) })
        }
        #expect([timing.usual.users, timing.usual.openedInDay] == expected["usual"])
        #expect([timing.control.users, timing.control.openedInDay] == expected["control"])
        #expect(timing.openLift != nil)
        // Opened more than a day after the send: not within a day. Sent at 12:00 on the 18th
        // at the latest on the 19th, read on the 21st.
        let fresh = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await fixture.backendWrite { db in
            try db.execute(
                sql:
                    "UPDATE panel_deliveries SET opened_at = '2026-11-21 12:00:00' "
                    + "WHERE campaign_id = ? AND receipt = 2",
                arguments: [id])
        }
        try await fresh.refresh(now: Self.launch.addingTimeInterval(2 * 86_400 + 60))
        #expect(try await fresh.report(id)?.timing?.usual.openedInDay == 0)
    }
}
