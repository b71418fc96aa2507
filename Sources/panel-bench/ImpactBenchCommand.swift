import AdminDomain
import ArgumentParser
import DemoData
import Foundation
import PanelLoad

/// The impact report of a campaign to everyone reachable: its first computation, its refreshes as the app
/// records more, and its page under load.
struct ImpactBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "impact",
        abstract: """
            The impact report of a campaign to everyone on a seeded database: first computation, incremental \
            refresh, page p99.
            """,
        discussion: """
            The database gets a campaign, events and receipts. With --binary, the campaign page and its report CSV \
            are loaded on the server.
            """)

    @OptionGroup var seeded: SeededDatabase

    @OptionGroup var serverSide: ServerSide

    @Option(help: "Days the launch is moved back, so that the goal's window covers recorded events.")
    var launchedDaysAgo = 2

    @Option(help: "Incremental refreshes to time, each after 1,000 new events and 200 receipts.")
    var rounds = 5

    @Option(help: "Concurrent connections for the page's load.")
    var connections = 4

    @Option(help: "Seconds of load on the page.")
    var seconds = 10

    @OptionGroup var warmUp: WarmUp

    func run() async throws {
        let database = try await seeded.open()
        let campaigns = Campaigns(database: database)
        let clock = ContinuousClock()
        let id = try await campaigns.create(
            CampaignDraft(
                title: "Impact benchmark", body: "Milk expires tomorrow",
                experiment: CampaignExperiment(
                    holdoutPercent: 10, goal: .anyActivity, goalDays: 3,
                    variants: [VariantMessage(variant: .b, title: "Impact benchmark B", body: "Scan one item today")])),
            by: .commandLine)
        var started = clock.now
        try await campaigns.begin(id, schedule: .now, by: .commandLine)
        let launch = try await campaigns.resumeLaunches()
        let members = try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ?", arguments: [id]) ?? 0
        }
        say(
            String(
                format: "freeze with a 10%% holdout and two variants: %d deliveries, %d members (users), %.2f s, "
                    + "the longest transaction %.1f ms",
                launch.deliveries, members, (clock.now - started).seconds, launch.longestTransaction.seconds * 1000))
        try await prepare(id, in: database)

        let tracker = CampaignImpactTracker(campaigns: campaigns)
        started = clock.now
        try await tracker.refresh()
        let first = clock.now - started
        guard let report = try await tracker.report(id) else { throw ValidationError("no report was computed") }
        say(
            String(
                format: "first computation: %.0f ms — recipients %d (converted %d, opened %d), "
                    + "holdout %d (converted %d)",
                first.seconds * 1000, report.recipients.users, report.recipients.converted, report.recipients.opened,
                report.holdout.users, report.holdout.converted))
        var times: [Double] = []
        for _ in 0..<rounds {
            try await appRecordsMore(campaign: id, in: database)
            started = clock.now
            try await tracker.refresh()
            times.append((clock.now - started).seconds * 1000)
        }
        say(
            "incremental refresh after 1,000 events and 200 receipts, ms: "
                + times.map { String(format: "%.1f", $0) }.joined(separator: ", "))
        if let binary = serverSide.binary { try await measurePage(campaign: id, binary: binary) }
    }

    /// Launched `launchedDaysAgo` days ago, every push accepted, a third opened and a third received.
    private func prepare(_ id: Int64, in database: PanelDatabase) async throws {
        let back = SQLiteTime.string(Date().addingTimeInterval(-Double(launchedDaysAgo) * 86_400))
        try await database.write { db in
            try db.execute(
                sql: "UPDATE panel_campaigns SET launched_at = ?, send_at = ? WHERE id = ?",
                arguments: [back, back, id])
            try db.execute(
                sql: """
                    UPDATE panel_deliveries
                    SET state = 'accepted', receipt = CASE id % 3 WHEN 0 THEN 2 WHEN 1 THEN 1 ELSE 0 END
                    WHERE campaign_id = ? AND state = 'queued'
                    """, arguments: [id])
        }
    }

    /// 1,000 events of random users stamped an hour ago (late rows inside the window) and
    /// 200 'opened' receipts for the campaign's deliveries, as the backend writes them.
    private func appRecordsMore(campaign id: Int64, in database: PanelDatabase) async throws {
        let (low, high) = try await database.read { db in
            (
                try Int64.fetchOne(
                    db, sql: "SELECT MIN(id) FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]) ?? 0,
                try Int64.fetchOne(
                    db, sql: "SELECT MAX(id) FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]) ?? 0
            )
        }
        let receipts = high >= low ? (0..<200).map { _ in "c\(id)-\(Int64.random(in: low...high))" } : []
        try await BackendActivity.record(
            events: 1_000, opened: receipts, at: Date().addingTimeInterval(-3_600), path: seeded.db)
    }

    private func measurePage(campaign id: Int64, binary: String) async throws {
        let folder = try BenchFolder("panel-impact")
        defer { folder.remove() }
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let server = try await folder.startPanel(binary, db: seeded.db)
        // The first look after a start waits for the report's first computation: not timed.
        _ = try await LoadDriver.status(
            of: server.baseURL + "/campaigns/\(id)", cookie: fixture.cookie, timeout: .seconds(60))
        try await warmUp.wait()
        let pages = [
            LoadPage("campaign page with its report", "/campaigns/\(id)"),
            LoadPage("report csv", "/campaigns/\(id)/report.csv"),
        ]
        let report = try await server.load(
            pages, cookie: fixture.cookie, seconds: seconds, connections: connections, timeout: .seconds(5))
        say("the server, \(connections) connections for \(seconds) s:\n" + report.table)
        _ = try await server.terminate(within: .seconds(15))
    }
}
