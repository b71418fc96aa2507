import Hummingbird
import Logging
import ServiceLifecycle

extension ApplicationProtocol {
    /// Serves until SIGTERM or SIGINT, then stops accepting connections, lets the requests in
    /// flight finish, and returns. The service group gives up on them at four fifths of the
    /// deadline and cancels them; the watchdog ends the process at the deadline if even that
    /// has not brought it down. (No `maximumCancellationDuration`: past it ServiceLifecycle
    /// crashes the process with a fatal error rather than exit.)
    public func runPanel(openRequests: OpenRequests, shutdownDeadline: Duration) async throws {
        let watchdog = ShutdownWatchdog(deadline: shutdownDeadline, openRequests: openRequests, logger: logger)
        watchdog.arm()
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: self)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownDeadline * 0.8
        try await ServiceGroup(configuration: configuration).run()
        logger.info("stopped")
    }
}
