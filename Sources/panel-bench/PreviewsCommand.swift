import ArgumentParser
import Foundation
import PanelLoad

/// Drafts browsed while support works: the previews' queue must not slow support down.
struct PreviewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previews",
        abstract: "Drafts' audience previews under load: support's p99 meanwhile, then the queue's drain time.",
        discussion: "The database gets the drafts.")

    @OptionGroup var panel: PanelBinary

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Drafts to browse.")
    var drafts = 100

    @Option(help: "Clients browsing the drafts at once.")
    var clients = 8

    @Option(help: "Seconds of browsing.")
    var seconds = 20

    @OptionGroup var warmUp: WarmUp

    func run() async throws {
        let folder = try BenchFolder("panel-previews")
        defer { folder.remove() }
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let ids = try await PreviewLoad.createDrafts(count: drafts, databasePath: seeded.db)
        let server = try await folder.startPanel(panel.binary, db: seeded.db)
        try await warmUp.wait()
        say(
            "server on \(server.baseURL): \(clients) clients browsing \(drafts) drafts"
                + " and 2 on support's pages for \(seconds) s")
        let report = try await PreviewLoad.run(
            baseURL: server.baseURL, fixture: fixture, drafts: ids, clients: clients, duration: .seconds(seconds))
        say("drafts:\n\(report.drafts.table)")
        say("support meanwhile:\n\(report.support.table)")
        say(
            report.drained.map { "the queue drained \(String(format: "%.1f", $0.seconds)) s after the browsing ended" }
                ?? "the queue had not drained within 300 s")
        try await server.stopAndSay()
    }
}
