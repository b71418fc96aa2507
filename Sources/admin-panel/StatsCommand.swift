import AdminDomain
import ArgumentParser
import Foundation

/// Computes the dashboard's numbers once and says how long that took: the benchmark for
/// the dashboard on a large database.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Print the dashboard's numbers for a database and the time they took.")

    @Option(help: "Path of the app's SQLite database.")
    var db: String

    @Option(help: "How many times to compute them.")
    var repeats = 3

    func run() async throws {
        try await reportingErrors {
            let database = try await PanelDatabase.open(path: db)
            var timings: [Double] = []
            var stats: DashboardStats?
            for _ in 0..<max(1, repeats) {
                let start = Date()
                stats = try await DashboardStats.compute(database: database)
                timings.append(Date().timeIntervalSince(start) * 1000)
            }
            guard let stats else { return }
            say("total users        \(stats.totalUsers) (\(stats.suspendedUsers) suspended)")
            say("active (7 days)    \(stats.activeUsers7Days)")
            say("items tracked      \(stats.itemsTracked) (\(stats.foodItems) food, \(stats.documents) documents)")
            say("premium            \(stats.premiumUsers) (\(String(format: "%.2f", (stats.premiumConversion ?? 0) * 100))%)")
            say("compute time (ms)  " + timings.map { String(format: "%.0f", $0) }.joined(separator: ", "))
        }
    }
}
