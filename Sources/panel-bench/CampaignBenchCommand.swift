import AdminDomain
import ArgumentParser
import CampaignDispatch
import DemoData
import Foundation
import Logging
import PushClients
import PushFakes

/// A campaign to everyone, from the audience preview to the receipts and the live page: each step beside
/// its floor where one exists, so that a slow figure shows which part is slow.
struct CampaignBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campaign",
        abstract: "Audience preview, launch and dispatch of a campaign to everyone, on a seeded database.",
        discussion: """
            The database gets a campaign. With --binary, support's first looks on a cold server (email prefixes, \
            profiles) are timed too, as `panel-bench search` does.
            """)

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Seconds of dispatching after the launch.")
    var seconds = 10

    @Option(help: "Outcomes timed from their commit to the live page.")
    var liveRounds = 20

    @Flag(help: "Run the fake providers in a process of their own, and print each side's CPU a delivery.")
    var separateFake = false

    @Flag(
        name: .customLong("dashboard"), inversion: .prefixedNo,
        help: "First time the dashboard's full count beside one scan of each big table.")
    var dashboard = true

    @OptionGroup var serverSide: ServerSide

    func run() async throws {
        let database = try await seeded.open()
        let clock = ContinuousClock()
        if dashboard {
            let scan = try await SendPathFloors.scan(database)
            let refresher = DashboardRefresher(database: database)
            await refresher.refresh(full: true, waitedOn: true)
            let full = await refresher.timing.full?.seconds ?? .nan
            say(
                String(
                    format: "dashboard full count: %.2f s, %.2f× its floor, one scan of each big table "
                        + "(%d rows): %.2f s",
                    full, full / scan.seconds, scan.rows, scan.seconds))
        }
        var started = clock.now
        let preview = try await Audience().preview(CampaignSegment(), schedule: .now, in: database)
        let previewTime = (clock.now - started).seconds
        let counts = preview.counts
        say(
            String(
                format: "audience preview: %.2f s (16 user-id ranges, 2 at a time), %d users and %d devices "
                    + "reachable, %d devices left out, %d in quiet hours",
                previewTime, counts.reachableUsers, counts.reachableDevices,
                counts.excludedDevices.values.reduce(0, +),
                preview.inQuietHours))
        let previewFloor = try await SendPathFloors.preview(database)
        say(
            String(
                format: "  %.2f× its floor, the simplest correct SQL count: %.2f s (%d users, %d devices)",
                previewTime / previewFloor.seconds, previewFloor.seconds, previewFloor.users, previewFloor.devices))

        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(
            CampaignDraft(title: "Benchmark", body: "Milk expires tomorrow"), by: .commandLine)
        started = clock.now
        try await campaigns.begin(id, schedule: .now, by: .commandLine)
        let report = try await campaigns.resumeLaunches()
        let freezeTime = (clock.now - started).seconds
        say(
            String(
                format: "launch: %d deliveries in %.2f s, %d transactions, the longest %.1f ms",
                report.deliveries, freezeTime, report.chunks,
                report.longestTransaction.milliseconds))
        let freezeFloor = try await SendPathFloors.freeze(database, campaign: id)
        say(
            String(
                format: "  %.2f× its floor, the plain SQL and the same writes into copies of the tables with "
                    + "their indexes: %.2f s (%d deliveries, %d transactions, the longest %.1f ms)",
                freezeTime / freezeFloor.seconds, freezeFloor.seconds, freezeFloor.deliveries, freezeFloor.chunks,
                freezeFloor.longest.milliseconds))
        // Two more to everyone while the first waits: the frequency cap (2) counts the other
        // launched campaigns' waiting deliveries, so nobody is left for the third.
        var overlapping: [Int64] = []
        for name in ["overlapping", "third"] {
            let other = try await campaigns.create(
                CampaignDraft(title: "Benchmark \(name)", body: "Milk expires tomorrow"), by: .commandLine)
            started = clock.now
            let again: LaunchReport
            do {
                try await campaigns.begin(other, schedule: .now, by: .commandLine)
                again = try await campaigns.resumeLaunches()
            } catch let error as CampaignError {
                say(
                    String(
                        format: "launch of a %@ campaign refused in %.2f s: %@", name, (clock.now - started).seconds,
                        error.description))
                continue
            }
            let states = try await DeliveryOutbox(database: database).counts(campaign: other)
            say(
                String(
                    format: "launch of %@ campaign: %d deliveries (%d queued, %d over the frequency cap) in %.2f s, "
                        + "the longest transaction %.1f ms",
                    name == "third" ? "a third" : "an overlapping", again.deliveries, states[.queued, default: 0],
                    states[.capped, default: 0], (clock.now - started).seconds, again.longestTransaction.milliseconds))
            overlapping.append(other)
        }
        for other in overlapping { _ = try await campaigns.cancel(other, by: .commandLine) }
        try await timeClaims(id, database: database)

        let fake = separateFake ? try await FakeEndpoint.spawn(.plain) : try await FakeEndpoint.inProcess(.plain)
        var logger = Logger(label: "campaign-bench")
        logger.logLevel = .warning
        let push = try await PushProviders.load(
            PushConfiguration(
                fcmServiceAccount: fake.serviceAccountPath, fcmBaseURL: fake.baseURL,
                apnsKey: fake.apnsKeyPath, apnsKeyID: TestCredentials.apnsKeyID, apnsTeamID: TestCredentials.apnsTeamID,
                apnsTopic: TestCredentials.apnsTopic, apnsBaseURL: fake.baseURL), logger: logger)
        let outbox = DeliveryOutbox(database: database)
        let dispatcher = CampaignDispatcher(outbox: outbox, campaigns: campaigns, push: push, logger: logger)
        let before = try await outbox.counts(campaign: id)
        let (ownCPU, fakeCPU) = (CPUTime.process(nil), CPUTime.process(fake.pid))
        let running = Task { try await dispatcher.run() }
        try await Task.sleep(for: .seconds(seconds))
        try await campaigns.pause(id, by: .commandLine)
        try await Task.sleep(for: .seconds(1))
        running.cancel()
        _ = try? await running.value
        let after = try await outbox.counts(campaign: id)
        let done = [DeliveryState.accepted, .dead, .failed, .unknown, .retry].reduce(0) {
            $0 + after[$1, default: 0] - before[$1, default: 0]
        }
        say(
            String(
                format: "dispatch: %.0f deliveries/s through both clients to the fake %@ (%d in %d s): %@",
                Double(done) / Double(seconds), separateFake ? "in a process of its own" : "in this process", done,
                seconds,
                after.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }.joined(
                    separator: " ")))
        if separateFake, done > 0 {
            // The dispatcher's own CPU a delivery (claims, records, both clients): what it could
            // send if it had the two cores the fake now shares.
            let own = (CPUTime.process(nil) - ownCPU) / Double(done)
            let theirs = (CPUTime.process(fake.pid) - fakeCPU) / Double(done)
            say(
                String(
                    format: "  CPU a delivery: the panel's side %.0f µs, the fake %.0f µs; "
                        + "the panel's side alone on 2 cores: %.0f deliveries/s (FCM's quota: 10,000/s)",
                    own * 1e6, theirs * 1e6, 2 / own))
        }
        var reads: [Double] = []
        for _ in 0..<5 {
            let began = clock.now
            _ = try await campaigns.progress(id)
            reads.append((clock.now - began).seconds)
        }
        reads.sort()
        say(
            String(
                format: "live counts: one read of the campaign's %d deliveries by state and receipt, median %.0f ms "
                    + "(at most one every 250 ms however many pages watch)",
                report.deliveries, reads[reads.count / 2] * 1000))
        // Receipts from hosts whose clocks disagree: none may be lost behind one from the future.
        let accepted = try await database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT 'c' || campaign_id || '-' || id FROM panel_deliveries
                    WHERE campaign_id = ? AND state = 'accepted' LIMIT 100000
                    """, arguments: [id])
        }
        if !accepted.isEmpty {
            let poller = ReceiptPoller(database: database)
            // The receipts already in the table are read once, at the panel's first start after
            // it began reading by id (a write transaction per 2,000).
            var began = clock.now
            let existing = try await poller.poll()
            say(String(format: "receipts already there: %d read in %.2f s", existing, (clock.now - began).seconds))
            let before = try await campaigns.progress(id).received
            try await SkewedReceipts.write(path: seeded.db, deliveryIDs: accepted)
            began = clock.now
            let read = try await poller.poll()
            let counted = try await campaigns.progress(id).received - before
            say(
                String(
                    format: "receipts: %d written (the first an hour ahead, one in ten an hour behind), "
                        + "%d read and %d counted in %.2f s (%.0f receipts/s)",
                    accepted.count, read, counted, (clock.now - began).seconds,
                    Double(read) / max(0.001, (clock.now - began).seconds)))
        }
        let delays = try await LiveDelay.measure(
            databasePath: seeded.db, campaign: id, rounds: liveRounds, logger: logger
        ).map(\.seconds).sorted()
        if !delays.isEmpty {
            say(
                String(
                    format: "outcome to live page: median %.0f ms, slowest %.0f ms over %d outcomes "
                        + "(commit to the event that carries it, through the real server)",
                    delays[delays.count / 2] * 1000, (delays.last ?? 0) * 1000, delays.count))
        }
        _ = try await campaigns.cancel(id, by: .commandLine)
        await push.shutdown()
        _ = await fake.stop()
        if let binary = serverSide.binary {
            let firstLooks = try SearchBenchCommand.parse(
                ["--db", seeded.db, "--binary", binary, "--load-seconds", "0"])
            try await firstLooks.run()
        }
    }

    /// A claim of 256 due deliveries, every rule checked again for each row (its user,
    /// settings and device read by their keys), and the part of it that holds the write lock,
    /// beside its floor in the same run: the bare UPDATE that marks as many rows `sending`.
    /// The rows are put back to `queued` after each.
    private func timeClaims(_ id: Int64, database: PanelDatabase) async throws {
        let outbox = DeliveryOutbox(database: database)
        let clock = ContinuousClock()
        var claims: [Double] = []
        var locks: [Double] = []
        var floors: [Double] = []
        var counts: [Int] = []
        let putBack = """
            UPDATE panel_deliveries SET state = 'queued', attempts = 0 WHERE campaign_id = ? AND state = 'sending'
            """
        for _ in 0..<20 {
            var began = clock.now
            let (claimed, _, lockHeld) = try await outbox.claimBatch(limit: 256)
            claims.append((clock.now - began).milliseconds)
            locks.append(lockHeld.milliseconds)
            try await database.write { db in try db.execute(sql: putBack, arguments: [id]) }
            // Rows put off (quiet hours) or settled are claimed no more; the floor moves as many.
            guard !claimed.isEmpty else { return say("claim: no due delivery could be claimed, not timed") }
            counts.append(claimed.count)
            began = clock.now
            try await database.write { db in
                try db.execute(
                    sql: """
                        UPDATE panel_deliveries SET state = 'sending' WHERE id IN (
                          SELECT id FROM panel_deliveries INDEXED BY panel_deliveries_due
                          WHERE campaign_id = ? AND state IN ('queued', 'retry') AND due_at <= ?
                          ORDER BY due_at LIMIT ?)
                        """, arguments: [id, SQLiteTime.string(Date()), claimed.count])
            }
            floors.append((clock.now - began).milliseconds)
            try await database.write { db in try db.execute(sql: putBack, arguments: [id]) }
        }
        claims.sort()
        locks.sort()
        floors.sort()
        say(
            String(
                format:
                    "claim of up to 256 (%d–%d claimed) with every rule checked again: median %.2f ms (longest %.2f), "
                    + "of which its write transaction %.2f ms (longest %.2f); "
                    + "floor, the bare UPDATE of as many rows in a write transaction: median %.2f ms (longest %.2f); "
                    + "the write %.2f× its floor",
                counts.min() ?? 0, counts.max() ?? 0, claims[claims.count / 2], claims.last ?? 0,
                locks[locks.count / 2], locks.last ?? 0, floors[floors.count / 2], floors.last ?? 0,
                locks[locks.count / 2] / max(0.001, floors[floors.count / 2])))
    }
}
