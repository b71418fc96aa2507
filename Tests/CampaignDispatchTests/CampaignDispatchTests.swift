import AdminDomain
import Foundation
import GRDB
import Logging
import PushClients
import PushFakes
import TestSupport
import Testing

@testable import CampaignDispatch

/// A campaign's whole path on a seeded database: the audience frozen into deliveries, the
/// dispatcher sending them through the real clients to the strict fake, a stop mid-batch.
@Suite(.timeLimit(.minutes(20))) struct CampaignDispatchTests {
    struct Setup {
        let temp: TemporaryDatabase
        let database: PanelDatabase
        let server: FakeProviderServer
        let credentials: TestCredentials
        let push: PushProviders

        static func start() async throws -> Setup {
            let temp = try await TemporaryDatabase.seeded(users: 300)
            // The test plays the backend: nobody keeps quiet hours, so every delivery is due now.
            try await DatabaseQueue(path: temp.path).write { db in
                try db.execute(sql: "UPDATE notification_settings SET quiet_start = NULL, quiet_end = NULL")
            }
            let database = try await PanelDatabase.open(path: temp.path)
            let server = try await FakeProviderServer.start()
            let credentials = try await TestCredentials.make(tokenURI: server.tokenURI)
            try await server.state.trust(credentials, tokenURI: server.tokenURI)
            await server.state.setRecording(false)
            var logger = Logger(label: "test")
            logger.logLevel = .warning
            let push = try await PushProviders.load(
                PushConfiguration(
                    fcmServiceAccount: credentials.serviceAccountPath, fcmBaseURL: server.baseURL,
                    apnsKey: credentials.apnsKeyPath, apnsKeyID: TestCredentials.apnsKeyID,
                    apnsTeamID: TestCredentials.apnsTeamID,
                    // A minute, not the product's 10 s: on two cores under the whole suite a send
                    // to the fake once took longer and came back unknown, which these tests
                    // count exactly (the stop's unknowns); timeouts are the clients' tests' to check.
                    apnsTopic: TestCredentials.apnsTopic, apnsBaseURL: server.baseURL, timeout: .seconds(60)),
                logger: logger)
            return Setup(temp: temp, database: database, server: server, credentials: credentials, push: push)
        }

        /// Starts a setup, runs `body` with it and awaits its stop whether `body` returns or
        /// throws: a test's teardown ends before the test does.
        static func with<T>(_ body: (Setup) async throws -> T) async throws -> T {
            let setup = try await start()
            do {
                let value = try await body(setup)
                await setup.stop()
                return value
            } catch {
                await setup.stop()
                throw error
            }
        }

        func stop() async {
            await push.shutdown()
            await server.stop()
            credentials.remove()
            temp.remove()
        }

        /// Runs the dispatcher until the campaign is neither being frozen nor sending, at most 60 s;
        /// with `campaigns`, the dispatcher publishes on their change feed.
        func dispatch(campaign: Int64, campaigns: Campaigns? = nil) async throws -> String {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let dispatcher = CampaignDispatcher(
                outbox: DeliveryOutbox(database: database), campaigns: campaigns ?? Campaigns(database: database),
                push: push,
                idle: .milliseconds(20), logger: logger)
            let running = Task { try await dispatcher.run() }
            defer { running.cancel() }
            for _ in 0..<600 {
                let status = try await database.read { db in
                    try String.fetchOne(
                        db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [campaign]) ?? ""
                }
                if status != "sending" && status != "materialising" { return status }
                try await Task.sleep(for: .milliseconds(100))
            }
            return "still sending"
        }

        func states(campaign: Int64) async throws -> [String: Int] {
            try await database.read { db in
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(
                        db,
                        sql: """
                            SELECT state, COUNT(*) FROM panel_deliveries WHERE campaign_id = ? GROUP BY state
                            """, arguments: [campaign]
                    ).map { (row: Row) -> (String, Int) in (row[0], row[1]) })
            }
        }
    }

    /// Reachable devices as an independent query: active users, push and marketing on (or no
    /// settings row), permission granted, a token, a provider the panel sends to.
    static let reachableSQL = """
        SELECT COUNT(*) FROM users u JOIN devices d ON d.user_id = u.id
        LEFT JOIN notification_settings s ON s.user_id = u.id
        WHERE u.status = 'active' AND d.push_permission = 'granted' AND COALESCE(d.push_token, '') <> ''
          AND d.push_provider IN ('fcm', 'apns')
          AND (s.user_id IS NULL OR (CAST(s.push_enabled AS INTEGER) <> 0 AND CAST(s.marketing_opt_in AS INTEGER) <> 0))
        """

    @Test func everyReachableDeviceGetsTheCampaignOnceAndEveryDeliveryEndsSomewhere() async throws {
        try await Setup.with { setup in
            let before = try appTablesDigest(path: setup.temp.path)
            let campaigns = Campaigns(database: setup.database, usersPerChunk: 37)
            let id = try await campaigns.create(
                CampaignDraft(title: "Milk \"expires\" <soon>", body: "Check your fridge 🥛"), by: .commandLine)
            let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
            let expected = try await DatabaseQueue(path: setup.temp.path).read { db in
                try Int.fetchOne(db, sql: Self.reachableSQL) ?? -1
            }
            #expect(frozen == expected && frozen > 100, "\(frozen) deliveries for \(expected) reachable devices")

            #expect(try await setup.dispatch(campaign: id) == "finished")
            let states = try await setup.states(campaign: id)
            #expect(states.values.reduce(0, +) == frozen)
            #expect(states["queued"] == nil && states["sending"] == nil && states["retry"] == nil)
            let seen = await setup.server.state.deliveryIDs
            #expect(seen.values.allSatisfy { $0 == 1 }, "no delivery id twice")
            let counts = await setup.server.state.counts
            #expect(states["accepted"] == counts.fcmAccepted + counts.apnsAccepted)
            let totals = try #require(try await campaigns.find(id)).totals
            #expect(
                totals.audience == frozen && totals.accepted == states["accepted"], "the list's running totals agree")
            // Seeded APNs tokens that are not hexadecimal are refused before sending, as dead.
            let dead = try await setup.database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_dead_tokens") ?? 0
            }
            #expect(dead == states["dead", default: 0])
            #expect(await setup.server.state.breaches.isEmpty)
            #expect(try appTablesDigest(path: setup.temp.path) == before, "the app's tables are untouched")

            // A second campaign leaves out the devices now known dead.
            let again = try await campaigns.create(CampaignDraft(title: "Again", body: "b"), by: .commandLine)
            #expect(try await campaigns.beginAndFreeze(again, by: .commandLine).deliveries == frozen - dead)
        }
    }

    @Test func deliveriesInFlightAtAStopBecomeUnknownAndAreNeverSent() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .free)), by: .commandLine)
            let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
            // Claimed and committed as sending, then the process "dies" before sending them.
            let inFlight = try await DeliveryOutbox(database: setup.database).claim(limit: 40)
            #expect(inFlight.count == 40)

            #expect(try await setup.dispatch(campaign: id) == "finished")
            let states = try await setup.states(campaign: id)
            #expect(states["unknown"] == 40)
            #expect(states.values.reduce(0, +) == frozen)
            let seen = await setup.server.state.deliveryIDs
            #expect(inFlight.allSatisfy { seen[$0.deliveryID] == nil }, "what may have gone out is never sent again")
            #expect(seen.values.allSatisfy { $0 == 1 })
        }
    }

    @Test func aCredentialsProblemPausesTheCampaignAndMarksNoTokenDead() async throws {
        try await Setup.with { setup in
            // FCM answers every send with THIRD_PARTY_AUTH_ERROR: the campaign must stop.
            let tokens = try await setup.database.read { db in
                try String.fetchAll(
                    db, sql: "SELECT push_token FROM devices WHERE push_provider = 'fcm' AND push_token IS NOT NULL")
            }
            for token in tokens {
                await setup.server.state.inject(Array(repeating: .thirdPartyAuth, count: 3), forToken: token)
            }
            let campaigns = Campaigns(database: setup.database)
            let segment = CampaignSegment(platform: .android)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: segment), by: .commandLine)
            _ = try await campaigns.beginAndFreeze(id, by: .commandLine)
            #expect(try await setup.dispatch(campaign: id) == "paused")
            let (detail, dead) = try await setup.database.read { db in
                (
                    try String.fetchOne(
                        db, sql: "SELECT status_detail FROM panel_campaigns WHERE id = ?", arguments: [id]) ?? "",
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_dead_tokens") ?? -1
                )
            }
            #expect(detail.contains("THIRD_PARTY_AUTH_ERROR"))
            #expect(dead == 0, "the providers' refusal of our credentials is never the devices' fault")
            // Sends already in flight when the campaign paused come back and are recorded.
            var states = try await setup.states(campaign: id)
            for _ in 0..<100 where states["sending"] != nil {
                try await Task.sleep(for: .milliseconds(100))
                states = try await setup.states(campaign: id)
            }
            #expect(states["sending"] == nil && states["accepted"] == nil)
        }
    }

    @Test func pauseStopsSendingResumeGoesOnAndCancelLeavesNothingWaiting() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
            let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
            try await campaigns.pause(id, by: .commandLine)
            #expect(try await setup.dispatch(campaign: id) == "paused")
            #expect(await setup.server.state.deliveryIDs.isEmpty, "a paused campaign sends nothing")
            await #expect(throws: CampaignError.self) { try await campaigns.pause(id, by: .commandLine) }

            try await campaigns.resume(id, by: .commandLine)
            #expect(try await setup.dispatch(campaign: id) == "finished")
            #expect(try await setup.states(campaign: id).values.reduce(0, +) == frozen)
            await #expect(throws: CampaignError.self) { try await campaigns.cancel(id, by: .commandLine) }

            let other = try await campaigns.create(CampaignDraft(title: "t2", body: "b"), by: .commandLine)
            _ = try await campaigns.beginAndFreeze(other, by: .commandLine)
            #expect(try await campaigns.cancel(other, by: .commandLine) == 0, "none had gone out")
            #expect(try await setup.states(campaign: other).keys.sorted() == ["cancelled"])
            let actions = try await setup.database.read { db in
                try String.fetchAll(
                    db, sql: "SELECT action FROM panel_audit_log WHERE target LIKE 'campaign:%' ORDER BY id")
            }
            #expect(
                actions == [
                    "campaign_created", "campaign_launched", "campaign_frozen", "campaign_paused", "campaign_resumed",
                    "campaign_finished",
                    "campaign_created", "campaign_launched", "campaign_frozen", "campaign_cancelled",
                ])
        }
    }

    @Test func aLaunchCutShortGoesOnFromItsLastChunkAtTheNextStart() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let whole = try await campaigns.create(CampaignDraft(title: "whole", body: "b"), by: .commandLine)
            let expected = try await campaigns.beginAndFreeze(whole, by: .commandLine).deliveries
            // A second launch "crashed" after writing the users up to the median.
            let cut = try await campaigns.create(CampaignDraft(title: "cut", body: "b"), by: .commandLine)
            try await setup.database.write { db in
                let median = try Int64.fetchOne(
                    db,
                    sql: "SELECT user_id FROM panel_deliveries WHERE campaign_id = ? ORDER BY user_id LIMIT 1 OFFSET ?",
                    arguments: [whole, expected / 2])!
                try db.execute(
                    sql: """
                        UPDATE panel_campaigns SET status = 'materialising',
                          launched_at = (SELECT launched_at FROM panel_campaigns WHERE id = :whole),
                          materialised_up_to = :median WHERE id = :cut;
                        INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                        SELECT :cut, device_id, user_id, 'queued', due_at, updated_at FROM panel_deliveries
                        WHERE campaign_id = :whole AND user_id <= :median;
                        """, arguments: ["whole": whole, "cut": cut, "median": median])
            }
            #expect(try await setup.dispatch(campaign: cut) == "finished")
            #expect(try await setup.states(campaign: cut).values.reduce(0, +) == expected)
        }
    }

    @Test func aPausedCampaignsWaitingRowsDoNotHoldUpAnotherCampaign() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let first = try await campaigns.create(CampaignDraft(title: "first", body: "b"), by: .commandLine)
            let waiting = try await campaigns.beginAndFreeze(first, by: .commandLine).deliveries
            try await campaigns.pause(first, by: .commandLine)
            let second = try await campaigns.create(
                CampaignDraft(title: "second", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            _ = try await campaigns.beginAndFreeze(second, by: .commandLine)
            #expect(try await setup.dispatch(campaign: second) == "finished")
            #expect(try await setup.states(campaign: first) == ["queued": waiting])
            // While an audience is being frozen, a campaign can be cancelled but not paused.
            try await setup.database.write { db in
                try db.execute(
                    sql: "UPDATE panel_campaigns SET status = 'materialising' WHERE id = ?", arguments: [second])
            }
            await #expect(throws: CampaignError.self) { try await campaigns.pause(second, by: .commandLine) }
        }
    }
}
