import AdminDomain
import Hummingbird
import Logging

/// Opens the database and builds the whole panel; the executable and the tests both call it.
public func buildApplication(_ configuration: PanelConfiguration, logger: Logger? = nil) async throws
    -> (some ApplicationProtocol, PanelServices) {
    let database = try await PanelDatabase.open(path: configuration.databasePath)
    let services = PanelServices(database: database, configuration: configuration)
    services.warmUp()
    return (buildApplication(services: services, configuration: configuration, logger: logger), services)
}

public func buildApplication(services: PanelServices, configuration: PanelConfiguration,
                             logger: Logger? = nil) -> some ApplicationProtocol {
    var logger = logger ?? Logger(label: "admin-panel")
    if logger.logLevel > .info { logger.logLevel = .info }
    return Application(
        router: buildRouter(services: services, publicDirectory: configuration.publicDirectory),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        logger: logger)
}

public func buildRouter(services: PanelServices, publicDirectory: String) -> Router<PanelRequestContext> {
    let router = Router(context: PanelRequestContext.self)
    router.addMiddleware {
        OpenRequestsMiddleware(openRequests: services.openRequests)
        SecurityHeadersMiddleware(tls: services.sessionCookie.secure)
        ErrorPageMiddleware()
        CSRFMiddleware(services: services)
        // Answers only what the routes do not: static files need no session.
        FileMiddleware(publicDirectory, urlBasePath: "/static", searchForIndexHtml: false)
    }
    let auth = AuthController(services: services)
    auth.addRoutes(to: router)

    let staff = StaffRoutes(
        group: router.group()
            .add(middleware: RequireStaffMiddleware(services: services))
            .group(context: StaffRequestContext.self)
            .add(middleware: RequirePasswordChangeMiddleware())
            .add(middleware: RequireTwoFactorMiddleware(policy: services.twoFactorPolicy)),
        services: services, registry: services.staffRoutes)
    auth.addStaffRoutes(to: staff)
    DashboardController(services: services).addRoutes(to: staff)
    AccountController(services: services).addRoutes(to: staff)
    AuditController(services: services).addRoutes(to: staff)
    StaffController(services: services).addRoutes(to: staff)
    TwoFactorController(services: services).addRoutes(to: staff)
    SignInFailuresController(services: services).addRoutes(to: staff)
    UsersController(services: services).addRoutes(to: staff)
    ActivityController(services: services).addRoutes(to: staff)
    return router
}
