import AdminDomain
import Foundation
import GRDB
import PanelLoad
import PushFakes
import TestSupport
import Testing

/// The real server sending a 50,000-device campaign to the strict fake, killed with SIGKILL
/// three times at random moments and started again each time.
@Suite(.timeLimit(.minutes(20))) struct CampaignCrashes {
    static let devices = 50_000

    @Test func killedThreeTimesNoDeliveryIsSentTwiceOrLost() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let server = try await FakeProviderServer.start()
        let credentials = try await TestCredentials.make(tokenURI: server.tokenURI)
        try await server.state.trust(credentials, tokenURI: server.tokenURI)
        await server.state.setRecording(false)
        defer {
            credentials.remove()
            Task { await server.stop() }
        }
        // The test plays the backend: 5,000 active users with ten Android devices each, and
        // nobody keeps quiet hours, so every delivery is due now.
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(
                sql: """
                    UPDATE notification_settings SET quiet_start = NULL, quiet_end = NULL;
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
                    INSERT INTO users (id, email, password_hash, created_at, last_active_at)
                    SELECT 800000 + i, 'crash' || i || '@example.test', 'x', '2026-01-01 00:00:00',
                           '2026-11-20 00:00:00' FROM n;
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.devices - 1))
                    INSERT INTO devices (
                      user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    SELECT 800001 + i / 10, 'android', 'fcm', 'crash-token-' || i, 'granted', '2026-01-01 00:00:00',
                           '2026-11-20 00:00:00' FROM n;
                    """)
        }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let segment = CampaignSegment(plan: .free)
        let id = try await campaigns.create(
            CampaignDraft(title: "Crash", body: "test", segment: segment), by: .commandLine)
        let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
        #expect(frozen >= Self.devices)

        let arguments = ["--fcm-service-account", credentials.serviceAccountPath, "--fcm-base-url", server.baseURL]
        func state(_ name: String) async throws -> Int {
            try await database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state = ?",
                    arguments: [id, name]) ?? 0
            }
        }
        var inFlightAtKills = 0
        for run in 1...3 {
            let panel = try await PanelProcess.start(
                binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
                arguments: arguments, logFile: temp.directory.appendingPathComponent("run\(run).log"))
            // Until it has sent some (a minute at most), then a random moment later.
            let sending = ContinuousClock.now + .seconds(60)
            while try await state("accepted") < run * 2_000, ContinuousClock.now < sending {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...700)))
            panel.sendKill()
            _ = try await panel.exitCode(within: .seconds(10))
            inFlightAtKills += try await state("sending")
        }
        let last = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
            arguments: arguments, logFile: temp.directory.appendingPathComponent("last.log"))
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(240)
        var status = ""
        while clock.now < giveUp {
            status = try await database.read { db in
                try String.fetchOne(db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [id]) ?? ""
            }
            if status != "sending" { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try await last.terminate(within: .seconds(30)) == 0)
        #expect(status == "finished")

        let (accepted, failed, unknown, dead) = (
            try await state("accepted"), try await state("failed"), try await state("unknown"), try await state("dead")
        )
        #expect(accepted + failed + unknown + dead == frozen, "nothing queued is lost")
        #expect(unknown == inFlightAtKills, "unknown is what was in flight at the kills, no more")
        let seen = await server.state.deliveryIDs
        #expect(seen.values.allSatisfy { $0 == 1 }, "no delivery id reached the provider twice")
        #expect(seen.count <= frozen)
        #expect(await server.state.breaches.isEmpty)
        print(
            """
            crash test: \(frozen) deliveries, \(accepted) accepted, \(unknown) unknown (in flight at the three kills: \
            \(inFlightAtKills)), fake saw \(seen.count)
            """
        )
    }
}
