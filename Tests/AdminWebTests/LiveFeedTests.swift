import AdminDomain
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// The live page waits on the change feed through one shared reader: open streams on an
/// idle campaign read nothing, a change that lands while a read runs still reaches the
/// page, and the dispatcher's last outcome shows on it.
@Suite(.timeLimit(.minutes(20))) struct LiveFeedTests {
    static func panel(streamSeconds: Int) async throws -> TestPanel {
        var panel = try await TestPanel(areas: [.campaigns])
        panel.configuration.eventStreamLength = .seconds(streamSeconds)
        panel.rebuildAreas()
        return panel
    }

    /// The counts of the last event a stream sent.
    static func lastCounts(_ text: String) throws -> CampaignProgress {
        let line = try #require(
            text.split(separator: "\n").last { $0.hasPrefix("data: ") }, "the stream sent no counts")
        return try JSONDecoder().decode(CampaignProgress.self, from: Data(line.dropFirst(6).utf8))
    }

    @Test func streamsOnAnIdleCampaignReadNothing() async throws {
        let panel = try await Self.panel(streamSeconds: 6)
        defer { panel.remove() }
        let campaigns = try panel.areas.campaigns
        let id = try await campaigns.campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await campaigns.campaigns.beginAndFreeze(
            id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        let (texts, reads) = try await panel.test { client in
            // Three sessions: each may hold at most three streams at once (`LiveStreams`).
            var cookies: [String] = []
            for _ in 0..<3 { cookies.append(try await panel.signIn(client)) }
            let sessions = cookies
            async let texts = withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await client.get("/campaigns/\(id)/events", cookie: sessions[index % 3]).text
                    }
                }
                var texts: [String] = []
                for try await text in group { texts.append(text) }
                return texts
            }
            // Every stream has joined and had its counts, even on two busy cores; then a second
            // with nothing happening (the streams polled, as they once did, it would read 4 times).
            try await Task.sleep(for: .seconds(3))
            let before = await campaigns.progress.reads
            try await Task.sleep(for: .seconds(1))
            return (try await texts, await campaigns.progress.reads - before)
        }
        #expect(texts.count == 8 && texts.allSatisfy { $0.contains("data: ") }, "every stream sent the counts")
        print("reads of the counts in one idle second with 8 streams open: \(reads)")
        #expect(reads <= 1, "\(reads) reads in one idle second")
    }

    actor Counter {
        private var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test func aChangePublishedWhileAReadRunsStillReachesThePage() async throws {
        let panel = try await Self.panel(streamSeconds: 8)
        defer { panel.remove() }
        let areas = panel.areas
        let campaigns = try areas.campaigns
        let id = try await campaigns.campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await campaigns.campaigns.beginAndFreeze(
            id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        let reads = Counter()
        // After a read took its counts, before the page hears of them: the stream's own first
        // read (which must come after its subscription), then the first the feed woke.
        await campaigns.progress.setAfterRead { campaign in
            guard await reads.next() <= 2 else { return }
            try? await areas.database.write { db in
                try db.execute(
                    sql: """
                        UPDATE panel_deliveries SET state = 'accepted'
                        WHERE id = (SELECT MIN(id) FROM panel_deliveries WHERE campaign_id = ? AND state <> 'accepted')
                        """, arguments: [campaign])
            }
            campaigns.campaigns.changes.publish(campaign)
        }
        let text = try await panel.test { client in
            try await client.get("/campaigns/\(id)/events", cookie: try await panel.signIn(client)).text
        }
        #expect(try Self.lastCounts(text).accepted == 2, "a change during a read never reached the page")
    }

    /// The panel's own dispatcher (a job of the application) with keys its providers refuse:
    /// it claims, is refused and stops the campaign with the reason, every delivery back in
    /// the queue. The page shows that end, which only the dispatcher's publish after recording
    /// tells of.
    @Test func thePageShowsWhereTheDispatcherLeftTheCampaign() async throws {
        // Long enough for the dispatcher to stop it under the whole suite's load on two busy
        // cores (a read of these counts once took 3 s there, and its outcomes came 250 ms apart).
        let panel = try await Self.panel(streamSeconds: 30)
        defer { panel.remove() }
        let campaigns = try panel.areas.campaigns
        let id = try await campaigns.campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        let (text, total) = try await panel.test { client in
            let cookie = try await panel.signIn(client)
            async let text = client.get("/campaigns/\(id)/events", cookie: cookie).text
            // The page is watching the draft when the launch comes, and the launch's own
            // changes are on the page before the deliveries fall due, two seconds later:
            // from then on only the dispatcher can tell the page.
            try await Task.sleep(for: .seconds(1))
            // The application's dispatcher, woken by the launch, may freeze it first: the
            // deliveries are counted from the store, not from this call's report.
            try await campaigns.campaigns.beginAndFreeze(
                id, schedule: .at(Date().addingTimeInterval(2)), by: .commandLine)
            let total = try await campaigns.campaigns.progress(id).total
            let stoppedBy = ContinuousClock.now + .seconds(25)
            while ContinuousClock.now < stoppedBy {
                let stored = try await campaigns.campaigns.progress(id)
                if stored.status == "paused" && stored.sending == 0 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            return (try await text, total)
        }
        let last = try Self.lastCounts(text)
        let stored = try await campaigns.campaigns.progress(id)
        #expect(
            stored.status == "paused" && stored.queued + stored.waiting == total,
            "the dispatcher stopped it: \(stored.status)")
        #expect(
            last.status == "paused" && last.detail?.contains("stopped: ") == true, "\(last.status) \(last.detail ?? "")"
        )
        #expect(
            last.sending == 0 && last.queued + last.waiting == total && total > 0,
            "the page's last counts: \(last.sending) sending, \(last.queued) + \(last.waiting) queued of \(total)")
    }
}
