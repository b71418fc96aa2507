import ArgumentParser
import DemoData
import Foundation
import PanelLoad

/// The load test's mix on the real server, stopped with SIGTERM as production stops it.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load the real server with concurrent connections and print requests/s and p99 per page.")

    @OptionGroup var panel: PanelBinary

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Folder of static files; by default the copy built into the panel.")
    var publicDirectory: String?

    @Option(help: "Concurrent connections.")
    var connections = 64

    @Option(help: "Seconds of load.")
    var seconds = 10

    @OptionGroup var warmUp: WarmUp

    @Option(
        help: """
            Only the pages of the mix whose name contains this, e.g. "20,000 items" for the heaviest profile; \
            several separated by "|" ("dashboard|search|profile|activity": issue 47's mix).
            """)
    var only: String?

    @Flag(help: "Give the server one cooperative thread, so that any blocking shows at once.")
    var oneThread = false

    @Option(
        help: """
            Milliseconds between the backend's writes during the load (each 14 rows: a user, 10 events, \
            3 items); 14 is about 1,000 rows a second. None by default.
            """)
    var backendEvery: Int?

    func run() async throws {
        let folder = try BenchFolder("panel-load")
        defer { folder.remove() }
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let mix = LoadPage.standardMix(fixture: fixture)
        let wanted = only.map { $0.split(separator: "|").map(String.init) }
        let pages = mix.filter { page in wanted.map { $0.contains(where: page.name.contains) } ?? true }
        guard !pages.isEmpty else {
            let names = mix.map(\.name).joined(separator: ", ")
            throw ValidationError("no page of the mix has \"\(only ?? "")\" in its name: \(names)")
        }
        let environment = oneThread ? try await OneCooperativeThread.environment(buildingIn: folder.url) : [:]
        let server = try await folder.startPanel(
            panel.binary, db: seeded.db, environment: environment, publicDirectory: publicDirectory)
        try await warmUp.wait()
        let threads = oneThread ? " with one cooperative thread" : ""
        say("server on \(server.baseURL)\(threads): \(connections) connections for \(seconds) s")
        let backend = backendEvery.map { every in
            Task { try await BackendActivity.run(path: seeded.db, every: .milliseconds(max(1, every))) }
        }
        if let backendEvery {
            say("the backend writes 14 rows every \(backendEvery) ms (\(14_000 / max(1, backendEvery)) rows/s at most)")
        }
        let report = try await server.load(
            pages, cookie: fixture.cookie, seconds: seconds, connections: connections, timeout: .seconds(5))
        backend?.cancel()
        if let backend, case .failure(let error) = await backend.result, !(error is CancellationError) {
            say("the backend's writes stopped: \(error)")
        }
        say(report.table)
        let after = try? await LoadDriver.status(of: server.baseURL + "/login")
        say("afterwards GET /login: \(after.map(String.init) ?? "no answer")")
        try await server.stopAndSay()
    }
}
