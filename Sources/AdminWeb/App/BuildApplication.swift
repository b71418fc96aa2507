import AdminDomain
import CampaignDispatch
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// Opens the database and builds the whole panel; the executable and the tests both call it.
public func buildApplication(
    _ configuration: PanelConfiguration, logger: Logger? = nil,
    metrics: PrometheusCollectorRegistry? = nil
) async throws
    -> (some ApplicationProtocol, PanelAreas)
{
    let database = try await PanelDatabase.open(path: configuration.databasePath)
    let areas = PanelAreas(database: database, configuration: configuration, logger: logger)
    return (buildApplication(areas: areas, metrics: metrics), areas)
}

/// Serves every area: the executable, the demo and the bench.
/// - Parameter extraServices: run in the panel's service group too, such as the demo's
///   device simulator.
public func buildApplication(
    areas: PanelAreas, metrics: PrometheusCollectorRegistry? = nil,
    extraServices: [any Service] = [],
    onRunning: (@Sendable (_ port: Int) async -> Void)? = nil
) -> some ApplicationProtocol {
    buildApplication(
        core: areas.core, areas: areas.list, metrics: metrics, extraServices: extraServices, onRunning: onRunning)
}

/// Serves the core (the site and sign-in) and the areas it is given, their routes and their
/// services; a test names the area it tests.
func buildApplication(
    core: PanelCore, areas: [any PanelArea], metrics: PrometheusCollectorRegistry? = nil,
    extraServices: [any Service] = [],
    onRunning: (@Sendable (_ port: Int) async -> Void)? = nil
) -> some ApplicationProtocol {
    let configuration = core.configuration
    let logger = core.logger
    // The server and the areas' own jobs run in one service group: on SIGTERM the server
    // drains first, then the jobs stop.
    var services = extraServices + core.services + areas.flatMap(\.services)
    if let metrics, let port = configuration.metricsPort {
        services.append(PanelMetrics.server(registry: metrics, port: port, logger: logger))
    }
    // Everything a service does reads on the jobs' connections, never the requests' (issue 46).
    let jobs: [any Service] = services.map { BackgroundJobService($0) }
    let limits = ConnectionLimits(
        maxConnections: configuration.maxConnections,
        maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
        headTimeout: .nanoseconds(configuration.headTimeout.nanoseconds),
        bodyTimeout: .nanoseconds(configuration.bodyTimeout.nanoseconds), logger: logger)
    return Application(
        responder: HeadAsGetResponder(next: buildRouter(core: core, areas: areas).router.buildResponder()),
        // Every connection counted against the caps and closed when slow or idle past its
        // limits; every response it carries has the security headers, router's or not.
        server: .http1(
            configuration: .init(additionalChannelHandlers: [
                ConnectionGuardHandler(limits: limits),
                SecurityHeadersHandler(tls: configuration.secureCookies),
            ])),
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

/// The router with the core's and the areas' routes, and the signed-in routes with their
/// permissions (for the route-by-role test and the table in docs/security.md). The routes and
/// their forms' rules are collected as values first: the middlewares are handed the complete
/// rules, then the routes are added behind them.
func buildRouter(core: PanelCore, areas: [any PanelArea]) -> (
    router: Router<PanelRequestContext>, staffRoutes: [StaffRoutes.Entry]
) {
    let signIn = core.auth.signIn
    let sessions = signIn.sessions
    let events = signIn.unauthenticatedEvents
    var staff = core.site.staffRoutes(refusals: events)
    core.auth.addRoutes(to: &staff)
    for area in areas { area.addRoutes(to: &staff) }
    let forms = staff.forms
    let router = Router(context: PanelRequestContext.self)
    core.site.addMiddleware(
        to: router, forms: forms, sessions: sessions, events: events, reminders: core.reminderHealth)
    core.site.addRoutes(to: router, reminders: core.reminderHealth)
    core.auth.addRoutes(to: router)
    staff.register(
        on: core.site.staffGroup(
            on: router, sessions: sessions, forms: forms, twoFactorPolicy: core.auth.twoFactorPolicy))
    return (router, staff.entries)
}

/// A service of the group run as a background job (`DatabaseLane.job`): every read it makes,
/// and every task it starts, goes to the jobs' connections, so a request never waits for a
/// pooled reader a job holds.
struct BackgroundJobService: Service, CustomStringConvertible {
    let service: any Service
    let name: String

    init(_ service: any Service) {
        self.service = service
        name = (service as? PeriodicJob)?.name ?? String(describing: type(of: service))
    }

    var description: String { name }

    func run() async throws {
        try await DatabaseLane.asJob(name) { try await service.run() }
    }
}
