import ArgumentParser
import Foundation
import PanelLoad

/// Starts `admin-panel serve` on a database, signs an admin in, drives the standard mix of
/// pages with many connections, stops the server with SIGTERM and prints the figures.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load the real server with concurrent connections and print requests/s and p99 per page.")

    @Option(help: "The admin-panel binary, e.g. .build/release/admin-panel.")
    var binary: String

    @Option(help: "Path of the app's SQLite database (made by `admin-panel seed`).")
    var db: String

    @Option(help: "Folder of static files; by default the copy built into the panel.")
    var publicDirectory: String?

    @Option(help: "Concurrent connections.")
    var connections = 64

    @Option(help: "Seconds of load.")
    var seconds = 10

    @Option(
        help:
            "Seconds to wait after the server starts, so its first background jobs (the dashboard's numbers) are done.")
    var warmUp = 0

    @Option(help: "Only the pages of the mix whose name contains this, e.g. \"20,000\" for the heaviest profile.")
    var only: String?

    @Flag(help: "Give the server one cooperative thread, so that any blocking shows at once.")
    var oneThread = false

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("panel-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try await LoadFixture.prepare(databasePath: db)
        let pages = LoadPage.standardMix(fixture: fixture).filter { page in only.map { page.name.contains($0) } ?? true
        }
        guard !pages.isEmpty else {
            throw ValidationError(
                "no page of the mix has \"\(only ?? "")\" in its name: \(LoadPage.standardMix(fixture: fixture).map(\.name).joined(separator: ", "))"
            )
        }
        let environment = oneThread ? try OneCooperativeThread.environment(buildingIn: folder) : [:]
        let server = try await PanelProcess.start(
            binary: URL(fileURLWithPath: binary), databasePath: db, publicDirectory: publicDirectory,
            environment: environment, logFile: folder.appendingPathComponent("server.log"))
        if warmUp > 0 { try await Task.sleep(for: .seconds(warmUp)) }
        say(
            "server on \(server.baseURL)\(oneThread ? " with one cooperative thread" : ""): \(connections) connections for \(seconds) s"
        )
        let report = try await LoadDriver.run(
            baseURL: server.baseURL, cookie: fixture.cookie,
            pages: pages,
            connections: connections, duration: .seconds(seconds), timeout: .seconds(5))
        say(report.table)
        let after = try? await LoadDriver.status(of: server.baseURL + "/login")
        say("afterwards GET /login: \(after.map(String.init) ?? "no answer")")
        let exit = try await server.terminate(within: .seconds(15))
        say("SIGTERM: \(exit.map { "exit code \($0)" } ?? "still running after 15 s, killed")")
    }
}
