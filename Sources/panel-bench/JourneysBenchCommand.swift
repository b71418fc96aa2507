import AdminDomain
import ArgumentParser
import DemoData
import Foundation
import GRDB
import PanelLoad
import PushFakes

/// The benchmark plays the backend (an hour of crossings; with `--binary` a day's win-back entries sent by
/// the server) and times each evaluation beside the plain SQL of the same index range, its floor.
struct JourneysBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journeys",
        abstract: "Time journey evaluations and a day's entries sent, on a copy of a seeded database.",
        discussion: """
            The database gets app rows and journeys. With --binary, the server sends a day's entries while \
            support's pages are timed.
            """)

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Entries a day of each trigger (the hour is a 24th of it).")
    var perDay = 30_000

    @OptionGroup var serverSide: ServerSide

    @Option(help: "Seconds of load for each page mix.")
    var seconds = 15

    @Option(help: "The day's journey's throttle, pushes a second (none: the providers' pace).")
    var perSecond: Int?

    @Option(
        help: "Seconds to let the server's first counts (dashboard, reminders) run before support's pages are timed.")
    var warmUp = 45

    func run() async throws {
        let now = Int64(Date().timeIntervalSince1970)
        let hour = perDay / 24
        let clock = ContinuousClock()
        var started = clock.now
        try await TriggerCrossings.hour(path: seeded.db, now: now, crossings: hour)
        say(
            String(
                format: "the backend's hour written: %d users stopped 30 days ago, %d signed up 2 days ago, "
                    + "%d subscriptions will not renew, 20,000 active, in %.1f s",
                hour, hour, hour, (clock.now - started).seconds))

        let database = try await seeded.open()
        let journeys = Journeys(database: database)
        var ids: [(String, Int64, JourneyTrigger)] = []
        for (name, trigger) in [
            ("inactive_days 30", JourneyTrigger.inactiveDays(30)),
            ("first_days 2, fewer than 3 items", .firstDays(2, fewerItems: 3)),
            ("subscription_ending 3", .subscriptionEnding(3)),
        ] {
            var content = CampaignDraft(title: "Bench \(name)", body: "b")
            content.experiment.holdoutPercent = 10
            let id = try await journeys.create(
                JourneyDraft(campaign: content, rules: JourneyRules(trigger: trigger)), by: .commandLine)
            try await journeys.activate(id, by: .commandLine)
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ?",
                    arguments: [now - 3_600, id])
            }
            ids.append((name, id, trigger))
        }
        let evaluator = JourneyEvaluator(database: database)
        for (name, id, trigger) in ids {
            let floor = try await Self.floor(trigger, database: database, now: now)
            started = clock.now
            let cpu = RemindersBenchCommand.processCPUSeconds()
            let outcome = try await evaluator.evaluate(journeyID: id, now: now)
            let took = clock.now - started
            let used = RemindersBenchCommand.processCPUSeconds() - cpu
            say(
                String(
                    format: "evaluation of %@ after an hour: %.1f ms (CPU %.1f ms), %d entered, %d deliveries queued; "
                        + "floor (plain SQL of the same index range%@, each user's row, devices and settings, "
                        + "at the same low priority, just before): %.1f ms",
                    name, took.milliseconds, used * 1000, outcome.entered, outcome.deliveries,
                    trigger == .subscriptionEnding(3) ? ", the pass's 10,000 rows" : "", floor * 1000))
        }
        for (_, id, _) in ids { try await journeys.pause(id, by: .commandLine) }
        if let binary = serverSide.binary { try await serverSide(binary: binary, database: database, now: now) }
    }

    /// The same rows by one plain statement: the index range, each user's row, devices and
    /// settings (and for `first_days` their items, up to the limit), read once.
    static func floor(_ trigger: JourneyTrigger, database: PanelDatabase, now: Int64) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        let from = SQLiteTime.string(secondsSinceEpoch: now - 3_600 - Int64(trigger.days) * 86_400)
        let until = SQLiteTime.string(secondsSinceEpoch: now - Int64(trigger.days) * 86_400)
        let perUser = """
            TOTAL(length(u.timezone) + length(u.status) + length(u.plan))
            + TOTAL(length(d.push_token) + length(d.push_permission))
            + TOTAL(length(s.daily_time) + s.push_enabled + s.marketing_opt_in)
            """
        let joins = """
            LEFT JOIN devices d INDEXED BY devices_user ON d.user_id = u.id
            LEFT JOIN notification_settings s ON s.user_id = u.id
            """
        _ = try await database.readAtLowPriority { db in
            switch trigger {
            case .inactiveDays:
                try Double.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) + (\(perUser)) * 0 FROM users u INDEXED BY users_last_active_at \(joins)
                        WHERE u.last_active_at > ? AND u.last_active_at <= ?
                        """, arguments: [from, until])
            case .firstDays(_, let fewer):
                try Double.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) + (\(perUser)) * 0
                               + TOTAL((SELECT COUNT(*) FROM (
                                   SELECT 1 FROM food_items f INDEXED BY food_items_user
                                   WHERE f.user_id = u.id AND f.deleted_at IS NULL LIMIT \(fewer)))) * 0
                        FROM users u INDEXED BY users_created_at \(joins)
                        WHERE u.created_at > ? AND u.created_at <= ?
                        """, arguments: [from, until])
            case .subscriptionEnding:
                try Double.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) + TOTAL(length(x.current_period_end) + length(x.status) + length(u.plan)) * 0
                        FROM (SELECT * FROM subscriptions ORDER BY id LIMIT 10000) x
                        LEFT JOIN users u ON u.id = x.user_id
                        """)
            }
        }
        return (clock.now - started).seconds
    }

    func serverSide(binary: String, database: PanelDatabase, now: Int64) async throws {
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let fake = try await FakeEndpoint.inProcess(.plain)
        let folder = try BenchFolder("panel-journeys")
        defer { folder.remove() }
        // A day's win-back crossings, waiting for one evaluation: the worst a day can bring at once.
        let journeys = Journeys(database: database)
        let id = try await journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "Bench day", body: "b", perSecond: perSecond),
                rules: JourneyRules(trigger: .inactiveDays(45), sendAt: .window(from: 0, to: 23))), by: .commandLine)
        try await TriggerCrossings.day(path: seeded.db, now: now, users: perDay, days: 45)
        let server = try await folder.startPanel(
            binary, db: seeded.db,
            arguments: [
                "--fcm-service-account", fake.serviceAccountPath, "--fcm-base-url", fake.baseURL,
                "--apns-key", fake.apnsKeyPath, "--apns-key-id", TestCredentials.apnsKeyID,
                "--apns-team-id", TestCredentials.apnsTeamID, "--apns-topic", TestCredentials.apnsTopic,
                "--apns-base-url", fake.baseURL, "--journey-interval", "5",
            ])
        let support = LoadPage.support(fixture, floor: "health (floor)")
        try await Task.sleep(for: .seconds(warmUp))
        let before = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        say("support's pages, 4 connections, no journey active:\n" + before.table)
        say("the day's journey sends \(perSecond.map { "at most \($0) pushes a second" } ?? "at the providers' pace")")
        try await journeys.activate(id, by: .commandLine)
        try await database.write { db in
            try db.execute(
                sql: "UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ?",
                arguments: [now - 86_400, id])
        }
        let clock = ContinuousClock()
        let started = clock.now
        let during = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        func figures() async throws -> (entries: Int, queued: Int, accepted: Int) {
            try await database.read { db in
                (
                    try Int.fetchOne(
                        db, sql: "SELECT entered_count FROM panel_journeys WHERE campaign_id = ?", arguments: [id])
                        ?? 0,
                    // Due now: a user in their quiet hours waits for their end.
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM panel_deliveries
                            WHERE campaign_id = ? AND state IN ('queued', 'retry', 'sending') AND due_at <= ?
                            """, arguments: [id, SQLiteTime.string(Date())]) ?? 0,
                    try Int.fetchOne(
                        db, sql: "SELECT accepted_count FROM panel_campaigns WHERE id = ?", arguments: [id]) ?? 0
                )
            }
        }
        let atEnd = try await figures()
        say(
            String(
                format: "support's pages, 4 connections, while the server evaluated the day's entries and sent them "
                    + "(%d entered, %d accepted, %d waiting after %.0f s):\n",
                atEnd.entries, atEnd.accepted, atEnd.queued, (clock.now - started).seconds) + during.table)
        let giveUp = clock.now + .seconds(600)
        var last = atEnd
        while clock.now < giveUp {
            last = try await figures()
            if last.entries > 0, last.queued == 0 { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        let later = try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state = 'queued'",
                arguments: [id]) ?? 0
        }
        say(
            String(
                format: "the day's entries: %d entered, %d pushes accepted by the fake, all those due settled "
                    + "%.1f s after activation (%d wait for the end of quiet hours)",
                last.entries, last.accepted, (clock.now - started).seconds, later))
        let after = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        say("support's pages, 4 connections, after:\n" + after.table)
        try await steady(server: server, fixture: fixture, journeys: journeys, database: database, support: support)
        try await server.stopAndSay()
        say("protocol breaches at the fake: \(await fake.stop())")
    }

    /// A journey fed as a day of `perDay` feeds it, ten times faster: the benchmark, playing
    /// the backend, makes users cross the trigger every second while support's pages are timed.
    func steady(
        server: PanelProcess, fixture: LoadFixture, journeys: Journeys, database: PanelDatabase, support: [LoadPage]
    ) async throws {
        let id = try await journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "Bench steady", body: "b"),
                rules: JourneyRules(trigger: .inactiveDays(60), sendAt: .window(from: 0, to: 23))), by: .commandLine)
        try await journeys.activate(id, by: .commandLine)
        let perSecond = max(1, perDay * 10 / 86_400)
        let path = seeded.db
        let writer = Task { try await TriggerCrossings.everySecond(path: path, perSecond: perSecond, days: 60) }
        let during = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        writer.cancel()
        do { say("the backend wrote \(try await writer.value) crossings") } catch {
            say("the backend's writes stopped: \(error)")
        }
        let entered = try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT entered_count FROM panel_journeys WHERE campaign_id = ?", arguments: [id])
                ?? 0
        }
        say(
            "support's pages, 4 connections, while \(perSecond) users a second crossed a journey's trigger "
                + "(ten times a day of \(perDay)'s pace), evaluated every 5 s and sent (\(entered) entered):\n"
                + during.table)
    }
}
