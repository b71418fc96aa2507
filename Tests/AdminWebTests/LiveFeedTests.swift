@testable import AdminWeb
import AdminDomain
import CampaignDispatch
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The live page waits on the change feed through one shared reader: open streams on an
/// idle campaign read nothing, a change that lands while a read runs still reaches the
/// page, and the dispatcher's last outcome shows on it.
@Suite(.timeLimit(.minutes(3))) struct LiveFeedTests {
    static func panel(streamSeconds: Int) async throws -> TestPanel {
        var panel = try await TestPanel()
        panel.configuration.eventStreamLength = .seconds(streamSeconds)
        panel.services = PanelServices(database: panel.services.database, configuration: panel.configuration)
        return panel
    }

    /// The counts of the last event a stream sent.
    static func lastCounts(_ text: String) throws -> CampaignProgress {
        let line = try #require(text.split(separator: "\n").last { $0.hasPrefix("data: ") }, "the stream sent no counts")
        return try JSONDecoder().decode(CampaignProgress.self, from: Data(line.dropFirst(6).utf8))
    }

    @Test func streamsOnAnIdleCampaignReadNothing() async throws {
        let panel = try await Self.panel(streamSeconds: 4)
        defer { panel.remove() }
        let services = panel.services
        let id = try await services.campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await services.campaigns.launch(id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        let (texts, reads) = try await panel.test { client in
            let cookie = try await panel.signIn(client)
            async let texts = withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await client.get("/campaigns/\(id)/events", cookie: cookie).text } }
                var texts: [String] = []
                for try await text in group { texts.append(text) }
                return texts
            }
            // Every stream has joined and had its counts; then a second with nothing happening.
            try await Task.sleep(for: .milliseconds(1_500))
            let before = await services.campaignProgress.reads
            try await Task.sleep(for: .seconds(1))
            return (try await texts, await services.campaignProgress.reads - before)
        }
        #expect(texts.count == 8 && texts.allSatisfy { $0.contains("data: ") }, "every stream sent the counts")
        print("reads of the counts in one idle second with 8 streams open: \(reads)")
        #expect(reads <= 1, "\(reads) reads in one idle second")
    }

    actor Once {
        private var done = false
        func take() -> Bool {
            defer { done = true }
            return !done
        }
    }

    @Test func aChangePublishedWhileAReadRunsStillReachesThePage() async throws {
        let panel = try await Self.panel(streamSeconds: 3)
        defer { panel.remove() }
        let services = panel.services
        let id = try await services.campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await services.campaigns.launch(id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        let once = Once()
        // After the first read took its counts, before the page hears of them.
        await services.campaignProgress.setAfterRead { campaign in
            guard await once.take() else { return }
            try? await services.database.write { db in
                try db.execute(sql: "UPDATE panel_deliveries SET state = 'accepted' WHERE id = (SELECT MIN(id) FROM panel_deliveries WHERE campaign_id = ?)",
                               arguments: [campaign])
            }
            services.campaigns.changes.publish(campaign)
        }
        let text = try await panel.test { client in
            try await client.get("/campaigns/\(id)/events", cookie: try await panel.signIn(client)).text
        }
        #expect(try Self.lastCounts(text).accepted == 1, "the change during the read never reached the page")
    }

    /// The panel's own dispatcher without credentials: it claims, finds no provider and stops
    /// the campaign with the reason, every delivery back in the queue. The page shows that
    /// end, which only the dispatcher's publish after recording tells of.
    @Test func thePageShowsWhereTheDispatcherLeftTheCampaign() async throws {
        let panel = try await Self.panel(streamSeconds: 5)
        defer { panel.remove() }
        let services = panel.services
        let id = try await services.campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        let total = try await services.campaigns.launch(id, by: .commandLine).deliveries
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let dispatcher = CampaignDispatcher(outbox: DeliveryOutbox(database: services.database, audience: services.campaigns.audience),
                                            campaigns: services.campaigns, push: services.push, idle: .milliseconds(20), logger: logger)
        let text = try await panel.test { client in
            let cookie = try await panel.signIn(client)
            async let text = client.get("/campaigns/\(id)/events", cookie: cookie).text
            try await Task.sleep(for: .seconds(1))
            let running = Task { try await dispatcher.run() }
            defer { running.cancel() }
            let stoppedBy = ContinuousClock.now + .seconds(3)
            while try await services.campaigns.progress(id).status == "sending", ContinuousClock.now < stoppedBy {
                try await Task.sleep(for: .milliseconds(20))
            }
            return try await text
        }
        let last = try Self.lastCounts(text)
        #expect(last.status == "paused" && last.detail?.contains("is configured") == true, "\(last.status) \(last.detail ?? "")")
        #expect(last.sending == 0 && last.queued + last.waiting == total && total > 0)
    }
}
