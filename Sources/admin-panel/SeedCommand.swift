import AdminDomain
import ArgumentParser
import DemoData
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

    @Option(help: "Mean devices a user (default: the seeder's spread, about 1.18).")
    var devicesPerUser: Double?

    @Option(help: "Share of devices with push permission granted, 0 to 1 (default: two in three).")
    var granted: Double?

    @Option(help: "Share of users opted in to marketing pushes, 0 to 1 (default 0.6).")
    var optedIn: Double?

    func run() async throws {
        try await reportingErrors {
            let shape = DemoShape(devicesPerUser: devicesPerUser, granted: granted, optedIn: optedIn)
            say("seeding \(db) with \(users) users (seed \(seed)): \(shape)")
            let (db, users, seed) = (db, users, seed)
            let report = try await BlockingWork.run {
                try DemoSeeder(userCount: users, seed: seed, shape: shape).run(path: db) { say($0) }
            }
            for (table, rows) in report.rowsPerTable {
                say("  \(table.padding(toLength: 22, withPad: " ", startingAt: 0)) \(rows)")
            }
            say(
                String(
                    format: "seeded %d rows in %.1f s: %.0f rows/s", report.totalRows, report.seconds,
                    report.rowsPerSecond))
        }
    }
}
