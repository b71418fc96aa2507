import AdminDomain
import Foundation

/// The domain services one running panel shares between requests.
public struct PanelServices: Sendable {
    public let database: PanelDatabase
    public let hasher: PasswordHasher
    public let admins: AdminStore
    public let signIn: SignInService
    public let stats: DashboardStatsCache
    let sessionCookie: SessionCookie
    let statsMaxAge: TimeInterval
    /// Every signed-in route and the permission it needs, filled as the router is built.
    let staffRoutes = StaffRoutes.Registry()

    public init(database: PanelDatabase, configuration: PanelConfiguration) {
        self.database = database
        hasher = PasswordHasher(parameters: configuration.scrypt, maxConcurrentHashes: configuration.maxConcurrentHashes)
        admins = AdminStore(database: database, hasher: hasher)
        signIn = SignInService(
            admins: admins,
            sessions: SessionStore(database: database, policy: configuration.sessionPolicy),
            audit: AuditLog(database: database),
            throttle: LoginThrottle(database: database),
            hasher: hasher)
        stats = DashboardStatsCache(reader: database.reader, maxAge: configuration.statsMaxAge)
        sessionCookie = SessionCookie(secure: configuration.secureCookies)
        statsMaxAge = configuration.statsMaxAge
    }

    /// Starts computing the dashboard's numbers, so that on a large database the first
    /// person to open the dashboard does not wait for them.
    public func warmUp() {
        let stats = self.stats
        Task { _ = try? await stats.stats() }
    }
}
