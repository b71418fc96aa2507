import AdminDomain
import Foundation
import TestSupport
import Testing

@testable import CampaignDispatch

/// The dispatcher tells the change feed of its claims and outcomes, after their commits: a
/// watcher that reads only when woken sees the campaign finished, with every delivery
/// settled, as a live page must.
@Suite(.timeLimit(.minutes(20))) struct CampaignFeedTests {
    @Test func aWatcherWokenOnlyByTheFeedSeesTheFinalCounts() async throws {
        let setup = try await CampaignDispatchTests.Setup.start()
        defer { Task { await setup.stop() } }
        let campaigns = Campaigns(database: setup.database)
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        let frozen = try await campaigns.beginAndFreeze(id, by: .commandLine).deliveries
        #expect(frozen > 100)
        let feed = campaigns.changes.subscribe(to: id)
        let watcher = Task { () -> CampaignProgress? in
            for await _ in feed {
                let progress = try await campaigns.progress(id)
                if progress.status == "finished" { return progress }
            }
            return nil
        }
        defer { watcher.cancel() }
        #expect(try await setup.dispatch(campaign: id, campaigns: campaigns) == "finished")
        // The watcher's last wake came with the last outcome; give its read time, then stop it.
        let stop = Task {
            try await Task.sleep(for: .seconds(5))
            watcher.cancel()
        }
        defer { stop.cancel() }
        let seen = try await watcher.value
        let progress = try #require(seen, "the feed never woke the watcher after the campaign finished")
        #expect(progress.done == frozen && progress.sending == 0 && progress.queued == 0)
    }
}
