import AdminDomain
import Foundation

/// Many drafts' pages browsed at once while support works: every look at a draft without a
/// fresh preview asks for one, and the previews' bounded queue must keep support's pages
/// quick. Then the queue must drain: every draft's page shows its counted audience.
public enum PreviewLoad {
    public struct Report: Sendable {
        public let drafts: LoadReport
        public let support: LoadReport
        /// From the end of the load until no draft page was waiting or counting; nil: not
        /// within the limit.
        public let drained: Duration?
    }

    /// `count` drafts whose audiences differ (each a sign-up window of its own), by the
    /// fixture's admin, so that none shares another's preview.
    public static func createDrafts(count: Int, databasePath: String) async throws -> [Int64] {
        let campaigns = Campaigns(database: try await PanelDatabase.open(path: databasePath))
        var ids: [Int64] = []
        for index in 0..<count {
            let from = Day(SQLiteTime.dayString(daysSinceEpoch: Day("2024-01-01")!.daysSinceEpoch + Int64(index * 3)))
            let draft = CampaignDraft(
                title: "Preview \(index)", body: "Hi {{display_name}}",
                segment: CampaignSegment(plan: index % 2 == 0 ? .free : nil, signedUpFrom: from))
            ids.append(try await campaigns.create(draft, by: .commandLine))
        }
        return ids
    }

    public static func run(
        baseURL: String, fixture: LoadFixture, drafts: [Int64], clients: Int, duration: Duration,
        drainLimit: Duration = .seconds(300)
    ) async throws -> Report {
        // Draft pages in a different order for each client, so that they ask for many at once.
        let draftPages = drafts.shuffled().map { LoadPage("draft page", "/campaigns/\($0)") }
        let supportPages = [
            LoadPage("search", "/users?q=maria"), LoadPage("profile", "/users/\(fixture.typicalUserID)"),
        ]
        async let draftLoad = LoadDriver.run(
            baseURL: baseURL, cookie: fixture.cookie, pages: draftPages, connections: clients,
            duration: duration, timeout: .seconds(10))
        async let supportLoad = LoadDriver.run(
            baseURL: baseURL, cookie: fixture.cookie, pages: supportPages, connections: 2,
            duration: duration, timeout: .seconds(10))
        let (draftReport, supportReport) = try await (draftLoad, supportLoad)
        let clock = ContinuousClock()
        let started = clock.now
        var drained: Duration?
        while clock.now - started < drainLimit {
            var waiting = 0
            for id in drafts {
                let page = try await OneRequest(baseURL + "/campaigns/\(id)", cookie: fixture.cookie).send(
                    timeout: .seconds(10)
                ).body
                if page.contains("Waiting for a free place") || page.contains("Counting the audience") { waiting += 1 }
            }
            if waiting == 0 {
                drained = clock.now - started
                break
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        return Report(drafts: draftReport, support: supportReport, drained: drained)
    }
}
