import AdminDomain
import Hummingbird
import Logging
import ServiceLifecycle

/// Signing in and out, one's own account and second factor, the staff accounts, the
/// sign-in failures and the audit log. Its sign-in (sessions, audit log, refusals) is the
/// one object every other area is handed.
public struct AuthArea: Sendable {
    public let signIn: SignInService
    public let admins: AdminStore
    public let staff: StaffAdministration
    public let account: AccountSecurity
    public let twoFactorPolicy: TwoFactorPolicy
    /// Recovery codes and generated passwords, held for their one showing after a redirect.
    let shownOnce = ShownOnce()
    let cookies: PanelCookies
    /// The audit flusher and the sweeper of expired sessions, challenges and throttle rows.
    public let services: [any Service]

    init(
        database: PanelDatabase, configuration: PanelConfiguration, logger: Logger, health: ServiceHealth,
        cookies: PanelCookies
    ) {
        let hasher = PasswordHasher(
            parameters: configuration.scrypt, maxConcurrentHashes: configuration.maxConcurrentHashes)
        let signIn = SignInService(database: database, hasher: hasher, sessionPolicy: configuration.sessionPolicy)
        self.signIn = signIn
        admins = signIn.admins
        staff = StaffAdministration(database: database, hasher: hasher)
        account = AccountSecurity(database: database, hasher: hasher)
        twoFactorPolicy = configuration.twoFactorPolicy
        self.cookies = cookies
        let events = signIn.unauthenticatedEvents
        let sweeper = ExpiredRowSweeper(database: database, sessionPolicy: configuration.sessionPolicy)
        services = [
            PeriodicJob(
                name: "audit-flusher", every: configuration.auditFlushInterval, health: health, logger: logger,
                onStop: { try await events.flush() },
                work: { try await events.flush() }
            ),
            PeriodicJob(name: "sweeper", every: configuration.sweepInterval, health: health, logger: logger) {
                let report = try await sweeper.sweep()
                if report != ExpiredRowSweeper.Report() {
                    logger.info(
                        "swept expired rows",
                        metadata: [
                            "sessions": "\(report.sessions)", "challenges": "\(report.challenges)",
                            "throttle_rows": "\(report.throttleRows)",
                        ])
                }
            },
        ]
    }

    /// The sign-in pages, which need no session (their forms' rules are in `staffRoutes.forms`).
    func addRoutes(to router: Router<PanelRequestContext>) {
        AuthController(signIn: signIn, cookies: cookies).addRoutes(to: router)
    }

    /// The signed-in pages, and the sign-in pages' forms' rules.
    func addRoutes(to staffRoutes: inout StaffRoutes) {
        let auditLog = signIn.audit
        AuthController.addFormRules(to: &staffRoutes.forms)
        AuthController(signIn: signIn, cookies: cookies).addStaffRoutes(to: &staffRoutes)
        AccountController(account: account, signIn: signIn, sessionCookie: cookies.session).addRoutes(to: &staffRoutes)
        AuditController(log: auditLog, audit: StaffAudit(log: auditLog)).addRoutes(to: &staffRoutes)
        StaffController(staff: staff, admins: admins, shownOnce: shownOnce, twoFactorPolicy: twoFactorPolicy).addRoutes(
            to: &staffRoutes)
        TwoFactorController(
            account: account, signIn: signIn, policy: twoFactorPolicy, sessionCookie: cookies.session,
            shownOnce: shownOnce
        ).addRoutes(to: &staffRoutes)
        SignInFailuresController(failures: .init(throttle: signIn.throttle, audit: auditLog)).addRoutes(
            to: &staffRoutes)
    }
}
