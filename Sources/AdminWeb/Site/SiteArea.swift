import AdminDomain
import Hummingbird
import PushClients

/// What every area's pages share on the web side: the cookies, the middleware chain every
/// request passes, the signed-in route group, /health and the background jobs' last runs it
/// shows, and the requests under way (for the shutdown watchdog).
public struct SiteArea: Sendable {
    let database: PanelDatabase
    let cookies: PanelCookies
    let trustedProxies: TrustedProxies
    /// Shown on every page (the demo's "pushes go to the simulator").
    let banner: String?
    let publicDirectory: String
    let push: PushProviders
    /// Requests whose handlers are running, for the shutdown watchdog.
    public let openRequests = OpenRequests()
    /// The background jobs' last runs, for /health; every area's jobs record in it.
    public let health = ServiceHealth()
    /// Forms sent after their session ended, held until their sender signs in again.
    let formStash = FormStash()
    /// Work nobody awaits (previews, dry runs, live pages' reads, a full count an admin
    /// asked for), run as child tasks of a service in the group.
    public let backgroundWork = BackgroundWork()
    /// The CSV exports being written, per staff member and in all.
    public let exports: ExportLimits

    init(database: PanelDatabase, configuration: PanelConfiguration) {
        self.database = database
        cookies = PanelCookies(secure: configuration.secureCookies)
        trustedProxies = configuration.trustedProxies
        banner = configuration.banner
        publicDirectory = configuration.publicDirectory
        push = configuration.push
        exports = ExportLimits(perStaff: configuration.maxExportsPerStaff, total: configuration.maxExports)
    }

    /// The chain every request passes, before any route is added (Hummingbird applies a
    /// router's middleware to the routes added after it).
    func addMiddleware(
        to router: Router<PanelRequestContext>, forms: FormRules, sessions: SessionStore, events: AuditAggregator,
        reminders: ReminderHealthMonitor
    ) {
        router.addMiddleware {
            ClientAddressMiddleware(trusted: trustedProxies)
            RequestLogMiddleware()
            BannerMiddleware(text: banner)
            ReminderAlertsMiddleware(monitor: reminders)
            MetricsMiddleware()
            OpenRequestsMiddleware(openRequests: openRequests)
            SecurityHeadersMiddleware(tls: cookies.session.secure)
            ErrorPageMiddleware(sessionCookie: cookies.session, sessions: sessions)
            // Before anything reads the path: the routes, the forms' rules and the static files.
            PathTextMiddleware<PanelRequestContext>()
            CSRFMiddleware(cookies: cookies, events: events, forms: forms)
            FormTextMiddleware(forms: forms)
            // Answers only what the routes do not: static files need no session.
            FileMiddleware(publicDirectory, urlBasePath: "/static", searchForIndexHtml: false)
        }
    }

    /// /health: the database, the jobs' last runs, the push providers and the reminder figures.
    func addRoutes(to router: Router<PanelRequestContext>, reminders: ReminderHealthMonitor) {
        HealthController(database: database, health: health, push: push, reminders: reminders).addRoutes(to: router)
    }

    /// The signed-in routes, to be filled by the areas; refusals are counted in `refusals`.
    func staffRoutes(refusals: AuditAggregator) -> StaffRoutes {
        StaffRoutes(refusals: refusals, stash: formStash, stashCookie: cookies.keptForm, exports: exports)
    }

    /// The group every signed-in route is added to: a session, a changed one-time password
    /// and, where the policy asks, a second factor.
    func staffGroup(
        on router: Router<PanelRequestContext>, sessions: SessionStore, forms: FormRules,
        twoFactorPolicy: TwoFactorPolicy
    ) -> RouterGroup<StaffRequestContext> {
        router.group()
            .add(
                middleware: RequireStaffMiddleware(
                    sessionCookie: cookies.session, sessions: sessions, forms: forms,
                    stash: formStash, stashCookie: cookies.keptForm)
            )
            .group(context: StaffRequestContext.self)
            .add(middleware: RequirePasswordChangeMiddleware())
            .add(middleware: RequireTwoFactorMiddleware(policy: twoFactorPolicy))
    }
}
