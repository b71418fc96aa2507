import Foundation
import PanelLoad
import TestSupport
import Testing

/// Drafts browsed by several clients at once on the real server while support works: every
/// page is answered and the previews' queue drains. The figures (support's p99 meanwhile) are
/// printed; at scale they come from `panel-bench previews`.
@Suite(.serialized, .timeLimit(.minutes(20))) struct PreviewLoadTests {
    @Test func draftsBrowsedAtOnceAreAllAnsweredAndTheQueueDrains() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 2_000)
        defer { temp.remove() }
        let fixture = try await LoadFixture.prepare(databasePath: temp.path)
        let drafts = try await PreviewLoad.createDrafts(count: 20, databasePath: temp.path)
        let server = try await PanelProcess.start(
            binary: executable, databasePath: temp.path, publicDirectory: TestPaths.publicDirectory,
            logFile: temp.directory.appendingPathComponent("server.log"))
        let report = try await PreviewLoad.run(
            baseURL: server.baseURL, fixture: fixture, drafts: drafts, clients: 4,
            duration: .seconds(5), drainLimit: .seconds(120))
        print("previews, drafts:\n\(report.drafts.table)\nsupport meanwhile:\n\(report.support.table)")
        #expect(report.drafts.failures == 0 && report.support.failures == 0, "every page answered")
        #expect(report.drained != nil, "the queue drained")
        #expect(try await server.terminate(within: .seconds(30)) == 0)
    }
}
