import ArgumentParser
import Foundation
import PanelLoad

/// Many drafts browsed at once on the real server while support works: support's p50 and
/// p99 beside the draft pages', then how long the previews' queue takes to drain. It writes
/// drafts into the panel's tables of that database: use a copy made for benchmarks.
struct PreviewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previews",
        abstract: "Drafts' audience previews under load: support's p99 meanwhile, then the queue's drain time.")

    @Option(help: "The admin-panel binary, e.g. .build/release/admin-panel.")
    var binary: String

    @Option(help: "Path of a seeded database (it gets the drafts).")
    var db: String

    @Option(help: "Drafts to browse.")
    var drafts = 100

    @Option(help: "Clients browsing the drafts at once.")
    var clients = 8

    @Option(help: "Seconds of browsing.")
    var seconds = 20

    @Option(
        help:
            "Seconds to wait after the server starts, so its first background jobs (the dashboard's numbers) are done.")
    var warmUp = 0

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panel-previews-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try await LoadFixture.prepare(databasePath: db)
        let ids = try await PreviewLoad.createDrafts(count: drafts, databasePath: db)
        let server = try await PanelProcess.start(
            binary: URL(fileURLWithPath: binary), databasePath: db, publicDirectory: nil,
            logFile: folder.appendingPathComponent("server.log"))
        if warmUp > 0 { try await Task.sleep(for: .seconds(warmUp)) }
        say(
            "server on \(server.baseURL): \(clients) clients browsing \(drafts) drafts and 2 on support's pages for \(seconds) s"
        )
        let report = try await PreviewLoad.run(
            baseURL: server.baseURL, fixture: fixture, drafts: ids, clients: clients, duration: .seconds(seconds))
        say("drafts:\n\(report.drafts.table)")
        say("support meanwhile:\n\(report.support.table)")
        say(
            report.drained.map {
                "the queue drained \(String(format: "%.1f", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)) s after the browsing ended"
            }
                ?? "the queue had not drained within 300 s")
        let exit = try await server.terminate(within: .seconds(15))
        say("SIGTERM: \(exit.map { "exit code \($0)" } ?? "still running after 15 s, killed")")
    }
}
