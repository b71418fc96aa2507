import AdminDomain
import AdminWeb
import ArgumentParser
import Foundation
import Hummingbird

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create ./demo.sqlite if absent, make sure an admin exists, and serve on http://127.0.0.1:8080.")

    @Option(help: "Path of the demo database.")
    var db = "demo.sqlite"

    @Option(help: "Users to generate when the database is created.")
    var users = 5_000

    @OptionGroup var server: ServerOptions

    static let adminEmail = "admin@example.com"

    func run() async throws {
        let app = try await reportingErrors {
            if !FileManager.default.fileExists(atPath: db) {
                say("creating \(db) with \(users) demo users…")
                let report = try DemoSeeder(userCount: users).run(path: db)
                say(String(format: "  %d rows in %.1f s", report.totalRows, report.seconds))
            }
            let configuration = server.configuration(databasePath: db)
            let database = try PanelDatabase.open(path: db)
            let services = PanelServices(database: database, configuration: configuration)
            if try await services.admins.activeAdminCount() == 0 {
                let password = Self.randomPassword()
                try await services.admins.create(email: Self.adminEmail, password: password, role: .admin)
                say("""

                created the admin account (this password is shown once):
                  email:    \(Self.adminEmail)
                  password: \(password)

                """)
            }
            services.warmUp()
            say("serving on http://\(server.host):\(server.port)")
            return buildApplication(services: services, configuration: configuration)
        }
        try await app.runService()
    }

    /// 20 characters from an alphabet without look-alikes (no 0/O, 1/l/I).
    static func randomPassword() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var rng = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
    }
}
