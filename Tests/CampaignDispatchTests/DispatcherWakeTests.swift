import AdminDomain
@testable import CampaignDispatch
import Foundation
import Logging
import Testing
import TestSupport

/// The dispatcher sleeps until something may have changed, not on a timer: a launch in this
/// process wakes it through the change feed, and one committed by another process through
/// SQLite's `data_version`, read once a second. Both with the default configuration, whose
/// safety pass comes only every 30 s.
@Suite(.timeLimit(.minutes(5))) struct DispatcherWakeTests {
    typealias Setup = CampaignDispatchTests.Setup

    static func dispatcher(_ setup: Setup, _ campaigns: Campaigns) -> CampaignDispatcher {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return CampaignDispatcher(outbox: DeliveryOutbox(database: setup.database), campaigns: campaigns, push: setup.push, logger: logger)
    }

    /// Polls the campaign's status until it is not `status`; returns the new one.
    static func waitWhile(_ status: String, _ id: Int64, _ database: PanelDatabase, atMost: Duration) async throws -> String {
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
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            let running = Task { try await Self.dispatcher(setup, campaigns).run() }
            defer { running.cancel() }
            // Asleep by now: its first passes found nothing to freeze or claim.
            try await Task.sleep(for: .seconds(2))
            let begun = ContinuousClock.now
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
            #expect(try await Self.waitWhile("materialising", id, setup.database, atMost: .seconds(25)) != "materialising")
            #expect(try await Self.waitWhile("sending", id, setup.database, atMost: .seconds(25)) == "finished")
            #expect(ContinuousClock.now - begun < .seconds(10), "woken by the launch's commit, not by the 30 s safety pass")
            #expect(try await setup.states(campaign: id).keys.sorted() == ["accepted"])
        }
    }

    @Test func aLaunchCommittedByAnotherProcessIsFrozenWithinTwoSeconds() async throws {
        try await Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
            let running = Task { try await Self.dispatcher(setup, campaigns).run() }
            defer { running.cancel() }
            try await Task.sleep(for: .seconds(2))
            // The CLI's launch: connections and a change feed of its own, which the
            // dispatcher's process never hears.
            let otherProcess = Campaigns(database: try await PanelDatabase.open(path: setup.temp.path))
            let begun = ContinuousClock.now
            try await otherProcess.begin(id, schedule: .now, by: .commandLine)
            let status = try await Self.waitWhile("materialising", id, setup.database, atMost: .seconds(25))
            let took = ContinuousClock.now - begun
            #expect(status != "materialising")
            #expect(took < .milliseconds(2_500), "seen through data_version within about a second, not at the 30 s safety pass: \(took)")
        }
    }
}
