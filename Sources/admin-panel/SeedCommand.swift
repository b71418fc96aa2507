import AdminDomain
import DemoData
import ArgumentParser
import Foundation

struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Create a new database filled with deterministic demo data.")

    @Option(help: "Path of the database to create.")
    var db: String

    @Option(help: "How many users to generate.")
    var users: Int

    @Option(help: "Random seed: the same seed on the same day gives the same data.")
    var seed: UInt64 = 1

    func run() async throws {
        try await reportingErrors {
            say("seeding \(db) with \(users) users (seed \(seed))")
            let (db, users, seed) = (db, users, seed)
            let report = try await BlockingWork.run { try DemoSeeder(userCount: users, seed: seed).run(path: db) { say($0) } }
            for (table, rows) in report.rowsPerTable {
                say("  \(table.padding(toLength: 22, withPad: " ", startingAt: 0)) \(rows)")
            }
            say(String(format: "seeded %d rows in %.1f s: %.0f rows/s", report.totalRows, report.seconds, report.rowsPerSecond))
        }
    }
}
