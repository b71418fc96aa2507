import AdminDomain
import ArgumentParser
import Foundation

/// Counts the dashboard's figures once in full, then once more from the new rows only,
/// and prints the headline figures with the time each count took.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Print the dashboard's headline figures for a database and the time they took.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        try await reportingErrors {
            let refresher = DashboardRefresher(database: try await database.open())
            await refresher.refresh(full: true, waitedOn: true)
            await refresher.refresh()
            if let failure = await refresher.lastFailure { throw DashboardUnavailable(reason: failure.message) }
            let snapshot = try await refresher.snapshot()
            for figure in snapshot.headlines[.standard] ?? [] {
                say(figure.name.padding(toLength: 40, withPad: " ", startingAt: 0) + Self.text(figure))
            }
            let timing = await refresher.timing
            say("full count         \(timing.full.map(Self.seconds) ?? "-")")
            say("incremental        \(timing.incremental.map(Self.seconds) ?? "-")")
        }
    }

    /// As the dashboard writes it: "69,312", "7.96%".
    static func text(_ figure: DashboardFigure) -> String {
        guard let value = figure.value, value.isFinite else { return "n/a" }
        return switch figure.format {
        case .count: Int(value.rounded()).grouped
        case .percent: String(format: "%.2f%%", value * 100)
        case .decimal: String(format: "%.1f", value)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
