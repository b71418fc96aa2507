import AdminDomain
import DemoData
import Foundation

/// What `admin-panel demo` does before it serves: a demo database if there is none, and an
/// admin account if there is none, whose password is returned to be shown once.
public enum DemoSetup {
    public static let adminEmail = "admin@example.com"

    public struct Outcome: Sendable {
        public let services: PanelServices
        /// nil when the database was already there.
        public let seedReport: DemoSeedReport?
        /// nil when an active admin already existed.
        public let adminPassword: String?
    }

    public static func prepare(configuration: PanelConfiguration, users: Int) async throws -> Outcome {
        var report: DemoSeedReport?
        if !FileManager.default.fileExists(atPath: configuration.databasePath) {
            let path = configuration.databasePath
            report = try await BlockingWork.run { try DemoSeeder(userCount: users).run(path: path) }
        }
        let services = PanelServices(database: try await PanelDatabase.open(path: configuration.databasePath),
                                     configuration: configuration)
        var password: String?
        if try await services.admins.activeAdminCount() == 0 {
            let fresh = await GeneratedPassword.make(for: adminEmail)
            try await services.admins.create(email: adminEmail, password: fresh, role: .admin)
            password = fresh
        }
        return Outcome(services: services, seedReport: report, adminPassword: password)
    }
}
