import AdminDomain
import ArgumentParser
import DemoData
import Foundation
import GRDB
import PanelLoad

/// The usual hour's first build, hourly refresh and freeze (issue 35), each beside its floor measured in the
/// same run; with `--binary`, support's pages while the build runs.
struct UsualHoursBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usual-hours",
        abstract: """
            Time the usual hour's first build, an hourly refresh and the freeze with and without it, on a copy of \
            a seeded database.
            """,
        discussion: """
            The database gets app rows, usual hours and campaigns. With --binary, support's pages on the server, \
            before and while the first build runs again.
            """)

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "The timing control share of the usual-hour campaign, in percent.")
    var controlPercent = CampaignTiming.defaultControlPercent

    @OptionGroup var serverSide: ServerSide

    @Option(help: "Seconds of load for each page mix (with --binary).")
    var seconds = 10

    @Option(help: "Seconds to let the server's first counts run before support's pages are timed (with --binary).")
    var warmUp = 45

    func run() async throws {
        let database = try await seeded.open()
        let clock = ContinuousClock()
        let now = Date()
        // The build ran an hour ago; the backend's hour of events follows it; then the refresh.
        let builtAt = now.addingTimeInterval(-3_600)
        try await Self.emptyUsualHours(database)
        let refresh = UsualHourRefresh(database: database, defaultTimeZone: "UTC")

        // (a) The first build, beside the plain SQL reading the same index range in one pass.
        let since = SQLiteTime.string(
            secondsSinceEpoch: Int64(builtAt.timeIntervalSince1970) - Int64(ActivityDays.window + 1) * 86_400)
        var started = clock.now
        let window = try await database.readAtLowPriority { db -> Int in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT user_id, created_at FROM activity_events INDEXED BY activity_events_user_time
                    WHERE created_at >= ?
                    """, arguments: [since])
            var count = 0
            var touched = 0
            while let row = try rows.next() {
                let user: Int64 = row[0]
                let time: String = row[1]
                count += 1
                touched &+= time.utf8.count &+ Int(user & 1)
            }
            return count + touched * 0
        }
        let floor = (clock.now - started).seconds
        started = clock.now
        var cpu = RemindersBenchCommand.processCPUSeconds()
        let built = try await refresh.run(now: builtAt)
        let took = (clock.now - started).seconds
        let used = RemindersBenchCommand.processCPUSeconds() - cpu
        let bases = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COUNT(*) AS rows, TOTAL(active_days >= \(UsualHour.ownDays)) AS own
                    FROM panel_usual_hours
                    """
            ).map { (rows: $0["rows"] as Int, own: $0["own"] as Int) }.first ?? (0, 0)
        }
        say(
            String(
                format: "first build of the usual hours from empty: %.1f s (CPU %.1f s), %d users written "
                    + "(%d with 5 active days or more), %d peer groups, %.0f rows/s; "
                    + "floor (plain SQL reading the same index range, all users in one pass, %d rows of the window, "
                    + "just before): %.1f s, %.0f rows/s",
                took, used, built.built, bases.own, built.peerGroups, Double(window) / took, window, floor,
                Double(window) / floor))

        // (b) An hour of the backend's events at the seeded pace, then the hourly refresh.
        let perHour = max(1, window / (ActivityDays.window * 24))
        let written = try await BackendActivity.hourOfEvents(path: seeded.db, now: now, events: perHour)
        started = clock.now
        let fresh = try await database.readAtLowPriority { db -> Int in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT user_id, created_at FROM activity_events WHERE id > ? ORDER BY id",
                arguments: [written.first - 1])
            var count = 0
            while let row = try rows.next() {
                let user: Int64 = row[0]
                let time: String = row[1]
                count += 1 + (time.isEmpty ? Int(user) : 0) * 0
            }
            return count
        }
        let readFloor = (clock.now - started).seconds
        started = clock.now
        cpu = RemindersBenchCommand.processCPUSeconds()
        let hourly = try await refresh.run(now: now)
        say(
            String(
                format: "hourly refresh after the backend's hour (%d events, the seeded pace of %d a day): "
                    + "%.2f s (CPU %.2f s), %d events read, %d users updated, %d rows aged, %d peer groups; "
                    + "floor (plain SQL reading those %d rows by id, just before): %.3f s",
                perHour, perHour * 24, (clock.now - started).seconds, RemindersBenchCommand.processCPUSeconds() - cpu,
                hourly.eventsRead,
                hourly.updated, hourly.aged, hourly.peerGroups, fresh, readFloor))

        // (c) The freeze to every reachable device, as scheduled and at each user's usual hour, one after
        // the other.
        let campaigns = Campaigns(database: database)
        var asScheduled: [Double] = []
        for (label, timing) in [
            ("as scheduled", CampaignTiming.asScheduled),
            ("timing=usual_hour", .usualHour(controlPercent: controlPercent)),
            ("as scheduled, again", .asScheduled),
        ] {
            let id = try await campaigns.create(
                CampaignDraft(title: "Bench \(label)", body: "Milk expires tomorrow", timing: timing), by: .commandLine)
            started = clock.now
            cpu = RemindersBenchCommand.processCPUSeconds()
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
            let report = try await campaigns.resumeLaunches()
            let seconds = (clock.now - started).seconds
            let used = RemindersBenchCommand.processCPUSeconds() - cpu
            var line = String(
                format: "freeze %@: %d deliveries in %.2f s (CPU %.2f s), %d transactions, the longest %.1f ms",
                label, report.deliveries, seconds, used, report.chunks, report.longestTransaction.milliseconds)
            if case .usualHour = timing {
                let added = seconds - (asScheduled.first ?? seconds)
                if let summary = try await database.read({ db in try TimingSummary.load(campaign: id, in: db) }) {
                    let basis = UsualHourBasis.allCases.map { "\($0.rawValue) \(summary.byBasis[$0, default: 0])" }
                        .joined(separator: ", ")
                    line += String(
                        format: "; %d users at their usual hour (%@), %d in the control; "
                            + "%+.2f s beside the freeze as scheduled",
                        summary.usual, basis, summary.control, added)
                }
            } else {
                asScheduled.append(seconds)
            }
            say(line)
            _ = try await campaigns.cancel(id, by: .commandLine)
        }
        if let binary = serverSide.binary { try await serverSide(binary: binary, database: database) }
    }

    /// The first build again, from empty, in this process while the real server serves
    /// support's pages from the same file: its reads run at low priority and its writes are
    /// small, so the pages should barely move.
    func serverSide(binary: String, database: PanelDatabase) async throws {
        try await Self.emptyUsualHours(database)
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let folder = try BenchFolder("panel-usual-hours")
        defer { folder.remove() }
        let server = try await folder.startPanel(binary, db: seeded.db)
        let support = LoadPage.support(fixture, floor: "health (floor)")
        try await Task.sleep(for: .seconds(warmUp))
        let before = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        say("support's pages, 4 connections, no build running:\n" + before.table)
        // The server's own job built them during the warm-up: from empty again, here.
        try await Self.emptyUsualHours(database)
        let clock = ContinuousClock()
        let started = clock.now
        let build = Task { try await UsualHourRefresh(database: database, defaultTimeZone: "UTC").run(now: Date()) }
        let during = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        let loadEnded = clock.now
        let figures = try await build.value
        let took = (clock.now - started).seconds
        say(
            String(
                format: "support's pages, 4 connections, while the first build ran in this process "
                    + "(%d users in %.1f s%@):\n",
                figures.built, took, took < (loadEnded - started).seconds ? ", ended before the load did" : "")
                + during.table)
        try await server.stopAndSay()
    }

    /// The usual hours as before their first build.
    static func emptyUsualHours(_ database: PanelDatabase) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM panel_usual_hours; DELETE FROM panel_usual_hour_peers;
                    DELETE FROM panel_usual_hour_state
                    """)
        }
    }
}
