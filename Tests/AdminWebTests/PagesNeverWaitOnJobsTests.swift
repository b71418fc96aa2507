import AdminDomain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 46, finding 0: at a million users the first dashboard after a start waited 50 s, for
/// the count it started itself. A page never waits for a background job: here every job of
/// the panel is held mid-work (at its next database access, its connection taken) and every
/// page is asked; each must answer while they are held, the dashboard saying its figures are
/// being counted.
@Suite(.timeLimit(.minutes(20))) struct PagesNeverWaitOnJobs {
    /// Jobs that reach the database at their first run; each must be seen held.
    static let heldJobs: Set<String> = ["dashboard-refresher", "reminder-health", "usual-hours", "journeys"]

    @Test func everyPageAnswersWhileEveryBackgroundJobIsHeld() async throws {
        let hold = JobHold()
        let panel = try await TestPanel(jobHold: hold)
        defer { panel.remove() }
        // Pages with something behind them: a launched campaign (its impact report not made
        // yet) and a journey.
        let campaigns = try panel.areas.campaigns.campaigns
        let campaign = try await campaigns.create(
            CampaignDraft(
                title: "A", body: "a", experiment: CampaignExperiment(holdoutPercent: 10, goal: .anyActivity)),
            by: .commandLine)
        try await campaigns.beginAndFreeze(campaign, by: .commandLine)
        let journey = try await panel.areas.journeys.journeys.create(
            JourneyDraft(
                campaign: CampaignDraft(title: "T", body: "B"), rules: JourneyRules(trigger: .inactiveDays(30))),
            by: .commandLine)
        let paths =
            ["/health", "/login"]
            + panel.router().staffRoutes.filter { $0.method == .get }.map { route in
                route.path.replacingOccurrences(of: "/campaigns/:id", with: "/campaigns/\(campaign)")
                    .replacingOccurrences(of: "/journeys/:id", with: "/journeys/\(journey)")
                    .replacingOccurrences(of: ":id", with: "1")
            }
        let waited = Waited()
        try await panel.test(firstCounts: false) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                do {
                    try await Self.askEveryPage(
                        client, panel: panel, paths: paths, hold: hold, waited: waited, group: &group)
                } catch {
                    hold.release()
                    throw error
                }
                // What waited is let go now, and finishes before the panel stops.
                hold.release()
                try await group.waitForAll()
            }
        }
        #expect(
            waited.names.withLock { $0 }.isEmpty, "pages that waited for a held job: \(waited.names.withLock { $0 })")
    }

    static func askEveryPage(
        _ client: any TestClientProtocol, panel: TestPanel, paths: [String], hold: JobHold, waited: Waited,
        group: inout ThrowingTaskGroup<Void, any Error>
    ) async throws {
        // Every job has started and is held inside its work.
        let allHeld = try await eventually(within: .seconds(60)) { hold.held.isSuperset(of: Self.heldJobs) }
        #expect(allHeld, "held: \(hold.held.sorted())")
        guard let cookie = try await answer("sign-in", waited, &group, { try await panel.signIn(client) }) else {
            return
        }
        // Every page at once: those that wait are named together, not one deadline each.
        let answers = Answers()
        for path in paths {
            group.addTask {
                let response = try? await client.get(path, cookie: cookie)
                answers.statuses.withLock { $0[path] = response.map { Int($0.status.code) } ?? 0 }
            }
        }
        // A page that answers while the jobs are still held did not wait for them, however long
        // it took: the deadline is generous, since exports read at the lowest priority and, in
        // the whole suite on two busy cores, get a thread only now and then.
        let allAnswered = try await eventually(within: .seconds(180)) {
            answers.statuses.withLock { $0.count } == paths.count
        }
        let answered = answers.statuses.withLock { $0 }
        if !allAnswered { waited.names.withLock { $0 += paths.filter { answered[$0] == nil }.map { "GET \($0)" } } }
        for (path, status) in answered.sorted(by: { $0.key < $1.key }) {
            #expect(status != 500 && status != 0, "GET \(path): \(status)")
        }
        // The dashboard says its figures are being counted, and when to come back.
        if let dashboard = try await answer("GET /", waited, &group, { try await client.get("/", cookie: cookie) }) {
            #expect(dashboard.status == .serviceUnavailable && dashboard.text.contains("being counted"))
            #expect(dashboard.headers[.retryAfter] != nil)
            // It asks again by itself, and offers to now (the tryout found it never reloaded,
            // its one link the dashboard that was not ready).
            let retry = try #require(dashboard.headers[.retryAfter])
            #expect(dashboard.text.contains("<meta http-equiv=\"refresh\" content=\"\(retry)\">"))
            #expect(dashboard.text.contains("<a href=\"/\">Ask again now</a>"))
            #expect(!dashboard.text.contains("Back to the dashboard"))
        }
        #expect(hold.held.isSuperset(of: Self.heldJobs), "the jobs were held throughout: \(hold.held.sorted())")
    }

    /// The answer of `ask`, or nil (and the name noted) when it did not come while the jobs
    /// are held: the ask is left in `group`, to finish once they are released.
    static func answer<T: Sendable>(
        _ name: String, _ waited: Waited, _ group: inout ThrowingTaskGroup<Void, any Error>,
        _ ask: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let result = Mutex<Result<T, any Error>?>(nil)
        group.addTask {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await ask()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
        }
        guard try await eventually(within: .seconds(120), { result.withLock { $0 != nil } }) else {
            waited.names.withLock { $0.append(name) }
            return nil
        }
        return try result.withLock { $0 }?.get()
    }
}

/// Each page's status once it answered.
final class Answers: Sendable {
    let statuses = Mutex<[String: Int]>([:])
}

/// The asks that did not answer while the jobs were held.
final class Waited: Sendable {
    let names = Mutex<[String]>([])
}
