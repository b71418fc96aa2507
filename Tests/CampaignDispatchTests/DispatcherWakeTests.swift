import AdminDomain
import Foundation
import Logging
import TestSupport
import Testing

@testable import CampaignDispatch

/// The dispatcher sleeps until something may have changed, not on a timer: a launch in this
/// process wakes it through the change feed, and one committed by another process through
/// SQLite's `data_version`, read every two seconds. The safety pass is put an hour away, so only
/// a wake can move the campaign on: the tests hold however slow the machine is, and a missed
/// wake fails them at the suite's time limit.
@Suite(.timeLimit(.minutes(20))) struct DispatcherWakeTests {
    typealias Setup = CampaignDispatchTests.Setup

    static func dispatcher(_ setup: Setup, _ campaigns: Campaigns) -> CampaignDispatcher {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return CampaignDispatcher(
            outbox: DeliveryOutbox(database: setup.database), campaigns: campaigns, push: setup.push,
            safety: .seconds(3_600), logger: logger)
    }

    /// Polls the campaign's status until it is not `status`; returns the new one.
    static func waitWhile(_ status: String, _ id: Int64, _ database: PanelDatabase, atMost: Duration) async throws
        -> String
    {
        let deadline = ContinuousClock.now + atMost
        while true {
            let now = try await CampaignEndStateTests.status(id, database)
            if now != status || ContinuousClock.now > deadline { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func anIdleDispatcherSendsANewlyBegunCampaignPromptly() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            let running = Task { try await Self.dispatcher(setup, campaigns).run() }
            defer { running.cancel() }
            // Asleep by now: its first passes found nothing to freeze or claim.
            try await Task.sleep(for: .seconds(2))
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
            #expect(
                try await Self.waitWhile("materialising", id, setup.database, atMost: .seconds(240)) != "materialising")
            #expect(try await Self.waitWhile("sending", id, setup.database, atMost: .seconds(240)) == "finished")
            #expect(try await setup.states(campaign: id).keys.sorted() == ["accepted"])
        }
    }

    @Test func aLaunchCommittedByAnotherProcessIsFrozenThroughDataVersion() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            let running = Task { try await Self.dispatcher(setup, campaigns).run() }
            defer { running.cancel() }
            try await Task.sleep(for: .seconds(2))
            // The CLI's launch: connections and a change feed of its own, which the
            // dispatcher's process never hears.
            let otherProcess = Campaigns(database: try await PanelDatabase.open(path: setup.temp.path))
            try await otherProcess.begin(id, schedule: .now, by: .commandLine)
            let status = try await Self.waitWhile("materialising", id, setup.database, atMost: .seconds(240))
            #expect(
                status != "materialising", "seen through data_version, the only wake another process's commit can give")
        }
    }
}
