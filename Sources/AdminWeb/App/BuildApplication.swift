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

/// - Parameter extraServices: run in the panel's service group too, such as the demo's
///   device simulator.
public func buildApplication(
    areas: PanelAreas, metrics: PrometheusCollectorRegistry? = nil,
    extraServices: [any Service] = [],
    onRunning: (@Sendable (_ port: Int) async -> Void)? = nil
) -> some ApplicationProtocol {
    let configuration = areas.configuration
    let logger = areas.logger
    // The server and the areas' own jobs run in one service group: on SIGTERM the server
    // drains first, then the jobs stop.
    var jobs = extraServices + areas.services
    if let metrics, let port = configuration.metricsPort {
        jobs.append(PanelMetrics.server(registry: metrics, port: port, logger: logger))
    }
    let limits = ConnectionLimits(
        maxConnections: configuration.maxConnections,
        maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
        headTimeout: .nanoseconds(configuration.headTimeout.nanoseconds),
        bodyTimeout: .nanoseconds(configuration.bodyTimeout.nanoseconds), logger: logger)
    return Application(
        responder: HeadAsGetResponder(next: buildRouter(areas: areas).router.buildResponder()),
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

/// The router with every area's routes, and the signed-in routes with their permissions
/// (for the route-by-role test and the table in docs/security.md), collected by value
/// before the router is shared.
func buildRouter(areas: PanelAreas) -> (router: Router<PanelRequestContext>, staffRoutes: [StaffRoutes.Entry]) {
    let router = Router(context: PanelRequestContext.self)
    let signIn = areas.auth.signIn
    let sessions = signIn.sessions
    let events = signIn.unauthenticatedEvents
    let auditLog = signIn.audit
    // Filled as the routes are added below; read by the middlewares at each request.
    let forms = FormRules()
    areas.site.addMiddleware(
        to: router, forms: forms, sessions: sessions, events: events, reminders: areas.reminders.monitor)
    areas.site.addRoutes(to: router, reminders: areas.reminders.monitor)
    areas.auth.addRoutes(to: router, forms: forms)
    var staff = areas.site.staffRoutes(
        on: router, sessions: sessions, events: events, forms: forms,
        twoFactorPolicy: areas.auth.twoFactorPolicy)
    areas.auth.addRoutes(to: &staff)
    areas.dashboard.addRoutes(to: &staff)
    areas.reminders.addRoutes(to: &staff)
    areas.support.addRoutes(to: &staff, auditLog: auditLog)
    areas.campaigns.addRoutes(to: &staff, sessions: sessions, auditLog: auditLog)
    areas.journeys.addRoutes(to: &staff, auditLog: auditLog)
    return (router, staff.entries)
}
