import AdminDomain
import ArgumentParser
import Foundation
import PanelBenchmarks

/// Support's pages on a large database: p50 and p99 of each lookup and page, and the export.
struct SupportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "support",
        abstract:
            "Time user search, profiles, activity lists and the CSV export on a database (build in release first).")

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Runs per figure (fewer for the slow ones).")
    var iterations = 300

    func run() async throws {
        let database = try await seeded.open()
        say("support benchmark on \(seeded.db), \(iterations) runs per figure")
        _ = try await SupportBenchmark.run(database: database, iterations: max(10, iterations)) { say($0) }
    }
}
