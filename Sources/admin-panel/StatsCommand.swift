import AdminDomain
import ArgumentParser
import Foundation

/// Counts the dashboard's figures once in full, then once more from the new rows only,
/// and prints the headline figures with the time each count took.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Print the dashboard's headline figures for a database and the time they took.")

    @Option(help: "Path of the app's SQLite database.")
    var db: String

    func run() async throws {
        try await reportingErrors {
            let database = try await PanelDatabase.open(path: db)
            let refresher = DashboardRefresher(database: database)
            await refresher.refresh(full: true)
            await refresher.refresh()
            if let failure = await refresher.lastFailure { throw DashboardUnavailable(reason: failure.message) }
            let snapshot = try await refresher.snapshot()
            for figure in snapshot.headlines[.standard] ?? [] {
                say(figure.name.padding(toLength: 40, withPad: " ", startingAt: 0) + (figure.value.map { String(format: "%.4g", $0) } ?? "n/a"))
            }
            let timing = await refresher.timing
            say("full count         \(timing.full.map { "\($0)" } ?? "-")")
            say("incremental        \(timing.incremental.map { "\($0)" } ?? "-")")
        }
    }
}
