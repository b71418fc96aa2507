import AdminDomain
import ArgumentParser
import DemoData
import Foundation
import GRDB
import PanelLoad
import Synchronization

/// Reminder health's counts beside the plain SQL of the same rows, their floor; with `--binary`, support's
/// pages while the server counts.
struct RemindersBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders",
        abstract:
            "Time the reminder health counts and page on a copy of a seeded database (reminders are added to it).",
        discussion: """
            With --binary, support's pages while the server's first counts run and after, and the health page \
            beside /health.
            """)

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Reminders the database should hold (added, spread over 45 days either side of now).")
    var reminders = 3_700_000

    @Option(help: "Refreshes to time after the full count.")
    var refreshes = 5

    @OptionGroup var serverSide: ServerSide

    @Option(help: "Seconds of load for each page mix.")
    var seconds = 10

    func run() async throws {
        let queue = try DatabaseQueue(path: seeded.db)
        let present = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT MAX(id) FROM reminders") ?? 0 }
        if present < reminders {
            let clock = ContinuousClock()
            let started = clock.now
            try await ReminderBackfill.add(reminders - present, path: seeded.db)
            let took = (clock.now - started).seconds
            say(String(format: "added %@ reminders in %.1f s", (reminders - present).grouped, took))
        }
        let database = try await seeded.open()
        let now = Int64(Date().timeIntervalSince1970)
        let (month, monthFloor) = try await Self.floor(database, from: now - ReminderRange.month.seconds, until: now)
        let (day, dayFloor) = try await Self.floor(database, from: now - ReminderHealthMonitor.dayWindow, until: now)
        let (recent, recentFloor) = try await Self.floor(
            database, from: now - ReminderHealthMonitor.recentWindow, until: now)
        let devicesFloor = try await Self.devicesFloor(database)
        say("reminders due in the last 30 days: \(month.grouped); 26 hours: \(day.grouped); 2 hours: \(recent.grouped)")

        // The monitor's clock runs ahead on demand, to reach its 26-hour re-read.
        let ahead = Mutex<TimeInterval>(0)
        let monitor = ReminderHealthMonitor(
            database: database, now: { Date().addingTimeInterval(ahead.withLock { $0 }) })
        let clock = ContinuousClock()
        var started = clock.now
        try await monitor.refresh(full: true)
        say(
            String(
                format: "first full count: %.2f s; "
                    + "floor (plain SQL reading the same 30 days' rows and columns, then every device): %.2f s",
                (clock.now - started).seconds, monthFloor + devicesFloor))
        var times: [Double] = []
        let cpuBefore = Self.processCPUSeconds()
        for _ in 0..<refreshes {
            started = clock.now
            try await monitor.refresh()
            times.append((clock.now - started).seconds * 1000)
        }
        let cpu = (Self.processCPUSeconds() - cpuBefore) / Double(max(1, refreshes)) * 1000
        say(
            String(
                format: "refresh (the last 2 hours read again, every figure of the 30 days made again): "
                    + "%@ ms (CPU %.1f ms each); floor (plain SQL, the same rows): %.1f ms",
                times.map { String(format: "%.1f", $0) }.joined(separator: ", "), cpu, recentFloor * 1000))
        ahead.withLock { $0 = ReminderHealthMonitor.dayEvery + 1 }
        started = clock.now
        try await monitor.refresh()
        say(
            String(
                format: "refresh every 5 minutes (the last 26 hours read again): %.1f ms; "
                    + "floor (plain SQL, the same rows): %.1f ms",
                (clock.now - started).seconds * 1000, dayFloor * 1000))
        if let snapshot = monitor.latest() {
            for line in ReminderHealthSummary.lines(snapshot, range: .day) { say("  " + line) }
        }
        if let binary = serverSide.binary { try await serverSide(binary: binary, database: database) }
    }

    /// The same rows and columns the count reads, by one plain statement along the index.
    static func floor(_ database: PanelDatabase, from: Int64, until: Int64) async throws -> (Int, Double) {
        let clock = ContinuousClock()
        let started = clock.now
        // Every column totalled, so none is left unread (TOTAL, not SUM: a column all NULL,
        // sent_at while nothing is sent, would make the whole sum NULL).
        let rows = try await database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) + CAST((TOTAL(length(r.scheduled_for)) + TOTAL(r.user_id) + TOTAL(length(r.status))
                           + TOTAL(length(r.sent_at)) + TOTAL(r.opened_at IS NOT NULL) + TOTAL(length(r.item_kind))
                           + TOTAL(r.days_before)) * 0 AS INTEGER)
                    FROM reminders r INDEXED BY reminders_scheduled
                    WHERE r.scheduled_for > ? AND r.scheduled_for <= ?
                    """,
                arguments: [SQLiteTime.string(secondsSinceEpoch: from), SQLiteTime.string(secondsSinceEpoch: until)])
                ?? 0
        }
        return (rows, (clock.now - started).seconds)
    }

    /// This process's CPU time so far: beside wall times on a machine others share.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Every device's user and platform, by one plain statement.
    static func devicesFloor(_ database: PanelDatabase) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT SUM(user_id) + SUM(platform = 'ios') + SUM(platform = 'android') FROM devices")
        }
        return (clock.now - started).seconds
    }

    func serverSide(binary: String, database: PanelDatabase) async throws {
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let folder = try BenchFolder("panel-reminders")
        defer { folder.remove() }
        let server = try await folder.startPanel(binary, db: seeded.db)
        let support = LoadPage.support(fixture, floor: "health")
        func counted() -> Bool { server.output.contains("reminder health counted") }
        let during = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        let overlapped = !counted()
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(300)
        while !counted(), clock.now < giveUp { try await Task.sleep(for: .milliseconds(200)) }
        if let line = server.output.split(separator: "\n").first(where: { $0.contains("reminder health counted") }) {
            say("the server's first reminder count: \(line)")
        }
        let ended = overlapped ? "" : " (the reminder count ended before the load did)"
        say("support's pages, 4 connections, during the server's first counts\(ended):\n" + during.table)
        let after = try await server.load(support, cookie: fixture.cookie, seconds: seconds)
        say("the same after them:\n" + after.table)
        let health = [
            LoadPage("reminders 24h", "/reminders?range=24h"), LoadPage("reminders 30d", "/reminders?range=30d"),
            LoadPage("reminders.csv", "/reminders.csv?range=7d"), LoadPage("health (floor)", "/health"),
        ]
        let page = try await server.load(health, cookie: fixture.cookie, seconds: seconds)
        say("the health page beside /health, 4 connections, warm:\n" + page.table)
        try await server.stopAndSay()
    }
}
