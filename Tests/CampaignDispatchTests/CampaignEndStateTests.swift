import AdminDomain
import Foundation
import GRDB
import Logging
import PushClients
import TestSupport
import Testing

@testable import CampaignDispatch

/// Every way a campaign can go ends: nothing to send, the last sends failing when claimed, a
/// pause with sends in flight, a cancel while the audience is frozen; and an idle dispatcher
/// leaves the write lock alone.
@Suite(.timeLimit(.minutes(20))) struct CampaignEndStateTests {
    typealias Setup = CampaignDispatchTests.Setup

    static func status(_ id: Int64, _ database: PanelDatabase) async throws -> String {
        try await database.read { db in
            try String.fetchOne(db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [id]) ?? ""
        }
    }

    @Test func aLaunchWithNoDeviceIsRefusedWithASentence() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let nobody = CampaignSegment(signedUpFrom: Day("2099-01-01"))
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b", segment: nobody), by: .commandLine)
            await #expect(
                throws: CampaignError(
                    "no device in its audience can get a campaign push now, so there would be nothing to send")
            ) {
                try await campaigns.beginAndFreeze(id, by: .commandLine)
            }
            #expect(try await Self.status(id, setup.database) == "draft")
            // A draft is deleted, never cancelled: a crafted cancel is refused and changes nothing.
            await #expect(throws: CampaignError.self) { _ = try await campaigns.cancel(id, by: .commandLine) }
            #expect(try await Self.status(id, setup.database) == "draft")
            try await campaigns.delete(id, by: .commandLine)
            #expect(try await campaigns.find(id) == nil)
            await #expect(throws: CampaignError.self) { try await campaigns.delete(id, by: .commandLine) }
            await #expect(throws: CampaignError.self) {
                try await campaigns.edit(id, to: CampaignDraft(title: "t", body: "b"), by: .commandLine)
            }
            // The newest campaign was deleted: the next one still gets an id of its own, since the
            // audit log names campaigns by id.
            #expect(try await campaigns.create(CampaignDraft(title: "next", body: "b"), by: .commandLine) > id)
        }
    }

    @Test func lastDeliveriesFailingWhenClaimedFinishTheCampaign() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
            // The backend removes every token after the launch.
            try await DatabaseQueue(path: setup.temp.path).write { db in
                try db.execute(sql: "UPDATE devices SET push_token = NULL")
            }
            #expect(try await setup.dispatch(campaign: id) == "finished")
            // Checked again when due: no token is a rule of the audience that no longer holds.
            #expect(try await setup.states(campaign: id) == ["excluded": frozen])
            #expect(await setup.server.state.deliveryIDs.isEmpty)
        }
    }

    @Test func aPauseWithSendsInFlightThenAResumeFinishes() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let outbox = DeliveryOutbox(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
            let inFlight = try await outbox.claim(limit: 10_000)
            #expect(inFlight.count == frozen)
            try await campaigns.pause(id, by: .commandLine)
            // The sends in flight come back while the campaign is paused: it stays paused.
            try await outbox.record(inFlight.map { ($0, .accepted(messageID: "m\($0.rowID)")) })
            #expect(try await Self.status(id, setup.database) == "paused")
            try await campaigns.resume(id, by: .commandLine)
            #expect(try await Self.status(id, setup.database) == "finished", "nothing was left: the resume finishes it")
            let actions = try await setup.database.read { db in
                try String.fetchAll(
                    db, sql: "SELECT action FROM panel_audit_log WHERE target = ? ORDER BY id",
                    arguments: ["campaign:\(id)"])
            }
            #expect(
                actions == [
                    "campaign_created", "campaign_launched", "campaign_frozen", "campaign_paused", "campaign_resumed",
                    "campaign_finished",
                ])
        }
    }

    @Test func aCancelWhileTheAudienceIsFrozenStopsTheFreezeAndLeavesNothingWaiting() async throws {
        try await Setup.with { setup in
            // A user a chunk: the freeze takes hundreds of transactions, and the cancel comes among them.
            let campaigns = Campaigns(database: setup.database, usersPerChunk: 1)
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
            let freezing = Task { try await campaigns.resumeLaunches() }
            while try await setup.database.read({ db in
                try Int.fetchOne(db, sql: "SELECT audience_count FROM panel_campaigns WHERE id = ?", arguments: [id])
                    ?? 0
            }) == 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            _ = try await campaigns.cancel(id, by: .commandLine)
            let report = try await freezing.value
            #expect(try await Self.status(id, setup.database) == "cancelled")
            let states = try await setup.states(campaign: id)
            #expect(states.keys.sorted() == ["cancelled"] && states["cancelled"] == report.deliveries)
            let (written, total) = try await setup.database.read { db in
                (
                    try Int.fetchOne(
                        db, sql: "SELECT materialised_up_to FROM panel_campaigns WHERE id = ?", arguments: [id]) ?? 0,
                    try Int.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0
                )
            }
            #expect(written < total, "the freeze stopped at the cancel")
            // The dispatcher, started afterwards, leaves it cancelled.
            #expect(try await setup.dispatch(campaign: id) == "cancelled")
        }
    }

    @Test func aLaunchWhoseAudienceCannotBeReadEndsSayingSo() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
            // A newer panel's segment, say.
            try await setup.database.write { db in
                try db.execute(
                    sql: "UPDATE panel_campaigns SET segment = '{\"plan\":\"gold\"}' WHERE id = ?", arguments: [id])
            }
            #expect(try await setup.dispatch(campaign: id) == "finished")
            let detail = try await setup.database.read { db in
                try String.fetchOne(db, sql: "SELECT status_detail FROM panel_campaigns WHERE id = ?", arguments: [id])
            }
            #expect(detail?.contains("nothing was sent") == true)
            #expect(try await setup.states(campaign: id).isEmpty)
        }
    }

    @Test func theDispatcherFreezesALaunchedAudienceItself() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
            #expect(try await setup.dispatch(campaign: id) == "finished")
            #expect(try await setup.states(campaign: id).values.reduce(0, +) > 0)
        }
    }

    @Test func anIdleDispatcherMakesNoWriteTransactionInTenSeconds() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            // Sending, but every delivery is due tomorrow: the dispatcher has nothing to claim.
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", schedule: .at(Date().addingTimeInterval(86_400))), by: .commandLine
            )
            try await campaigns.beginAndFreeze(id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
            #expect(try await Self.status(id, setup.database) == "sending")
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let dispatcher = CampaignDispatcher(
                outbox: DeliveryOutbox(database: setup.database), campaigns: campaigns, push: setup.push,
                idle: .milliseconds(20), logger: logger)
            let running = Task { try await dispatcher.run() }
            defer { running.cancel() }
            // Its start-up writes (recovery) come first.
            try await Task.sleep(for: .seconds(1))
            // SQLite's data_version, read on a connection of the test's own, moves whenever any
            // other connection commits a change to the file.
            let watcher = try DatabaseQueue(path: setup.temp.path)
            let version = { try await watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? -1 } }
            let before = try await version()
            try await Task.sleep(for: .seconds(10))
            #expect(try await version() == before, "no commit in 10 s of polling every 20 ms")
            #expect(try await Self.status(id, setup.database) == "sending")
        }
    }
}
