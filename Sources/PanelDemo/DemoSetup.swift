import AdminDomain
import AdminWeb
import DemoBackend
import DemoData
import Foundation

/// What `admin-panel demo` does before it serves: a demo database if there is none, an
/// admin account if there is none, whose password is returned to be shown once, and the
/// demo's journeys if there are none.
public enum DemoSetup {
    public static let adminEmail = "admin@example.com"
    /// One account per other role, so that each can be tried without an authenticator app.
    public static let roleAccounts: [(email: String, role: Role)] = [
        ("marketing@example.com", .marketing), ("support@example.com", .support),
    ]
    /// The domain of the demo's staff accounts, and of generated app users such as user 1,
    /// maria.silva@example.com: marketing may add its app users as test users unless
    /// `--test-user-domain` names others.
    public static let testUserDomain = "example.com"

    public struct Outcome: Sendable {
        public let areas: PanelAreas
        /// nil when the database was already there.
        public let seedReport: DemoSeedReport?
        /// nil when an active admin already existed.
        public let adminPassword: String?
        /// The role accounts created now, with their passwords, to show once.
        public let rolePasswords: [(email: String, role: Role, password: String)]
        /// nil when the database had journeys already.
        public let journeys: DemoJourneys.Seeded?
    }

    /// The global control group's share in a new demo.
    static let demoControlPercent = 5

    public static func prepare(configuration: PanelConfiguration, users: Int) async throws -> Outcome {
        var report: DemoSeedReport?
        if !FileManager.default.fileExists(atPath: configuration.databasePath) {
            let path = configuration.databasePath
            report = try await BlockingWork.run { try DemoSeeder(userCount: users).run(path: path) }
        }
        let areas = PanelAreas(
            database: try await PanelDatabase.open(path: configuration.databasePath), configuration: configuration)
        let admins = areas.auth.admins
        var password: String?
        if try await admins.activeAdminCount() == 0 {
            let fresh = await GeneratedPassword.make(for: adminEmail)
            try await admins.create(email: adminEmail, password: fresh, role: .admin)
            password = fresh
        }
        var created: [(email: String, role: Role, password: String)] = []
        for account in roleAccounts where try await admins.find(email: account.email) == nil {
            let fresh = await GeneratedPassword.make(for: account.email)
            try await admins.create(email: account.email, password: fresh, role: account.role)
            created.append((account.email, account.role, fresh))
        }
        // The demo's global control group, set once: a share an admin changed later stays theirs.
        let control = GlobalControl(database: areas.database)
        if try await control.settings().history.isEmpty {
            try await control.set(percent: demoControlPercent, by: .commandLine)
        }
        // After the providers are configured: a journey is activated only if they can reach its devices.
        let journeys = try await DemoJourneys.seed(areas.journeys.journeys)
        return Outcome(
            areas: areas, seedReport: report, adminPassword: password, rolePasswords: created, journeys: journeys)
    }
}
