import AdminDomain
import CampaignDispatch
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// Opens the database and builds the whole panel; the executable and the tests both call it.
public func buildApplication(_ configuration: PanelConfiguration, logger: Logger? = nil,
                             metrics: PrometheusCollectorRegistry? = nil) async throws
    -> (some ApplicationProtocol, PanelServices) {
    let database = try await PanelDatabase.open(path: configuration.databasePath)
    let services = PanelServices(database: database, configuration: configuration)
    return (buildApplication(services: services, configuration: configuration, logger: logger, metrics: metrics), services)
}

/// - Parameter extraServices: run in the panel's service group too, such as the demo's
///   device simulator.
public func buildApplication(services: PanelServices, configuration: PanelConfiguration,
                             logger: Logger? = nil, metrics: PrometheusCollectorRegistry? = nil,
                             extraServices: [any Service] = [],
                             onRunning: (@Sendable (_ port: Int) async -> Void)? = nil) -> some ApplicationProtocol {
    var logger = logger ?? Logger(label: "admin-panel")
    logger.logLevel = configuration.logLevel
    // The server and the panel's own jobs run in one service group: on SIGTERM the server
    // drains first, then the jobs stop.
    var jobs = extraServices + backgroundJobs(services: services, configuration: configuration, logger: logger)
    if let metrics, let port = configuration.metricsPort {
        jobs.append(PanelMetrics.server(registry: metrics, port: port, logger: logger))
    }
    let limits = ConnectionLimits(maxConnections: configuration.maxConnections,
                                  maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
                                  headTimeout: .nanoseconds(configuration.headTimeout.nanoseconds),
                                  bodyTimeout: .nanoseconds(configuration.bodyTimeout.nanoseconds), logger: logger)
    return Application(
        responder: HeadAsGetResponder(next: buildRouter(services: services, publicDirectory: configuration.publicDirectory).buildResponder()),
        // Every connection counted against the caps and closed when slow or idle past its
        // limits; every response it carries has the security headers, router's or not.
        server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuardHandler(limits: limits),
                                                                        SecurityHeadersHandler(tls: configuration.secureCookies)])),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        services: jobs,
        onServerRunning: { [logger] channel in
            // The bound port, which differs from the configured one when that is 0.
            let port = channel.localAddress?.port ?? configuration.port
            logger.info("panel listening on \(configuration.host):\(port)")
            await onRunning?(port)
        },
        logger: logger)
}

/// The dashboard refresher, the sweeper, the audit flusher, the push clients' connections and
/// the campaign dispatcher; the receipt poller joins them here.
func backgroundJobs(services: PanelServices, configuration: PanelConfiguration, logger: Logger) -> [any Service] {
    let dashboard = services.dashboard, sweeper = services.sweeper, events = services.signIn.unauthenticatedEvents
    // The dispatcher and the campaign use cases publish on the same feed, `campaigns.changes`.
    let receipts = ReceiptPoller(database: services.database, changes: services.campaigns.changes)
    return [
        PeriodicJob(name: "audit-flusher", every: configuration.auditFlushInterval, health: services.health, logger: logger,
                    onStop: { try await events.flush() }) {
            try await events.flush()
        },
        // A failed refresh is kept by the refresher for admins to see; the job itself goes on.
        PeriodicJob(name: "dashboard-refresher", every: .seconds(max(1, configuration.dashboardRefreshInterval)),
                    health: services.health, logger: logger) {
            await dashboard.refresh()
        },
        PeriodicJob(name: "reminder-health", every: configuration.reminderRefreshInterval, health: services.health, logger: logger) {
            [reminders = services.reminderHealth] in
            try await reminders.refresh()
            if let snapshot = reminders.latest() { ReminderGauges().record(snapshot) }
        },
        PushClientsService(push: services.push),
        services.backgroundWork,
        CampaignDispatcher(outbox: DeliveryOutbox(database: services.database, audience: services.campaigns.audience,
                                                   defaultTimeZone: services.campaigns.defaultTimeZone),
                           campaigns: services.campaigns,
                           push: services.push, templates: services.templates, logger: logger),
        PeriodicJob(name: "receipt-poller", every: configuration.receiptPollInterval, health: services.health, logger: logger) {
            try await receipts.poll()
        },
        // Also chooses a winner test's winner when its wait has passed.
        PeriodicJob(name: "impact-refresher", every: configuration.impactRefreshInterval, health: services.health, logger: logger) { [impact = services.impact] in
            try await impact.refresh()
        },
        PeriodicJob(name: "journeys", every: configuration.journeyInterval, health: services.health, logger: logger) {
            [runner = JourneyRunner(journeys: services.journeys)] in
            let tick = try await runner.tick()
            JourneyMetrics().record(tick)
            if tick.outcome.entered > 0 || tick.expired > 0 {
                logger.info("journeys evaluated", metadata: [
                    "journeys": "\(tick.journeys)", "entered": "\(tick.outcome.entered)", "deliveries": "\(tick.outcome.deliveries)",
                    "expired": "\(tick.expired)", "goals_judged": "\(tick.judged)"])
            }
        },
        // The first run builds every user's hours, a chunk at a time, however long that takes;
        // the next interval is counted from its end.
        PeriodicJob(name: "usual-hours", every: configuration.usualHourInterval, health: services.health, logger: logger) {
            [refresh = UsualHourRefresh(database: services.database, defaultTimeZone: configuration.defaultTimeZone)] in
            let figures = try await refresh.run(now: Date())
            UsualHourMetrics().record(figures)
            logger.info("usual hours refreshed", metadata: [
                "built": "\(figures.built)", "events_read": "\(figures.eventsRead)", "updated": "\(figures.updated)",
                "aged": "\(figures.aged)", "peer_groups": "\(figures.peerGroups)", "building": "\(figures.building)"])
        },
        PeriodicJob(name: "sweeper", every: configuration.sweepInterval, health: services.health, logger: logger) {
            let report = try await sweeper.sweep()
            if report != ExpiredRowSweeper.Report() {
                logger.info("swept expired rows", metadata: [
                    "sessions": "\(report.sessions)", "challenges": "\(report.challenges)", "throttle_rows": "\(report.throttleRows)"])
            }
        },
    ]
}

public func buildRouter(services: PanelServices, publicDirectory: String) -> Router<PanelRequestContext> {
    let router = Router(context: PanelRequestContext.self)
    let cookies = services.cookies, sessions = services.signIn.sessions, events = services.signIn.unauthenticatedEvents
    // Filled as the routes are added below; read by the middlewares at each request.
    let forms = FormRules()
    router.addMiddleware {
        ClientAddressMiddleware(trusted: services.trustedProxies)
        RequestLogMiddleware()
        BannerMiddleware(text: services.banner)
        ReminderAlertsMiddleware(monitor: services.reminderHealth)
        MetricsMiddleware()
        OpenRequestsMiddleware(openRequests: services.openRequests)
        SecurityHeadersMiddleware(tls: cookies.session.secure)
        ErrorPageMiddleware(sessionCookie: cookies.session, sessions: sessions)
        CSRFMiddleware(cookies: cookies, events: events, forms: forms)
        FormTextMiddleware(forms: forms)
        // Answers only what the routes do not: static files need no session.
        FileMiddleware(publicDirectory, urlBasePath: "/static", searchForIndexHtml: false)
    }
    HealthController(database: services.database, health: services.health, push: services.push, reminders: services.reminderHealth).addRoutes(to: router)
    let auth = AuthController(signIn: services.signIn, cookies: cookies)
    auth.addRoutes(to: router, forms: forms)

    let staff = StaffRoutes(
        group: router.group()
            .add(middleware: RequireStaffMiddleware(sessionCookie: cookies.session, sessions: sessions, forms: forms,
                                                    stash: services.formStash, stashCookie: cookies.keptForm))
            .group(context: StaffRequestContext.self)
            .add(middleware: RequirePasswordChangeMiddleware())
            .add(middleware: RequireTwoFactorMiddleware(policy: services.twoFactorPolicy)),
        refusals: events, registry: services.staffRoutes, forms: forms, stash: services.formStash, stashCookie: cookies.keptForm)
    let auditLog = services.signIn.audit, audit = StaffAudit(log: auditLog), database = services.database
    auth.addStaffRoutes(to: staff)
    DashboardController(
        source: .init(dashboard: services.dashboard, refreshEvery: services.dashboardRefreshInterval,
                      fullCountEvery: services.dashboardFullCountInterval, campaigns: services.campaigns, impact: services.impact,
                      journeys: services.journeys),
        pages: services.dashboardPages, work: services.backgroundWork).addRoutes(to: staff)
    RemindersController(source: .init(monitor: services.reminderHealth, refreshEvery: services.reminderRefreshInterval)).addRoutes(to: staff)
    AccountController(account: services.account, signIn: services.signIn, sessionCookie: cookies.session).addRoutes(to: staff)
    AuditController(log: auditLog, audit: audit).addRoutes(to: staff)
    StaffController(staff: services.staff, admins: services.admins, shownOnce: services.shownOnce, twoFactorPolicy: services.twoFactorPolicy)
        .addRoutes(to: staff)
    TwoFactorController(account: services.account, signIn: services.signIn, policy: services.twoFactorPolicy,
                        sessionCookie: cookies.session, shownOnce: services.shownOnce).addRoutes(to: staff)
    SignInFailuresController(failures: .init(throttle: services.signIn.throttle, audit: auditLog)).addRoutes(to: staff)
    let directory = UserDirectory(database: database)
    UsersController(
        directory: directory,
        profiles: .init(database: database, heavyUsers: services.heavyUsers, templates: services.templates,
                        defaultTimeZone: services.campaigns.defaultTimeZone),
        activity: .init(directory: directory, log: UserActivityLog(database: database)), reminders: UserReminders(database: database),
        audit: audit).addRoutes(to: staff)
    ActivityController(lists: .init(lists: ActivityLists(database: database), dashboard: services.dashboard), audit: audit).addRoutes(to: staff)
    CampaignsController(
        source: .init(campaigns: services.campaigns, previews: services.previews, progress: services.campaignProgress,
                      impact: services.impact, testUsers: services.testSend.testUsers, templates: services.templates, database: database),
        templateProblem: services.templateProblem, testSend: services.testSend, sessions: sessions, auditLog: auditLog,
        eventStreamLength: services.eventStreamLength).addRoutes(to: staff)
    JourneysController(
        source: .init(journeys: services.journeys,
                      dryRuns: JourneyDryRuns(audience: services.journeys.audience, defaultTimeZone: services.journeys.defaultTimeZone, database: database,
                                              work: services.backgroundWork),
                      reports: JourneyReports(database: database)),
        templates: services.templates, templateProblem: services.templateProblem, auditLog: auditLog).addRoutes(to: staff)
    return router
}
