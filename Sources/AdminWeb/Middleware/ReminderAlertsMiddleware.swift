import AdminDomain
import Hummingbird

/// Hands the reminder alerts in force to the page layout, which shows them in a banner on
/// every page for signed-in staff (never on the sign-in pages: they have no viewer). The
/// monitor's latest snapshot is read without waiting: a count never holds up a page.
struct ReminderAlertsMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let monitor: ReminderHealthMonitor

    /// A task-local like the demo's banner: tests run several panels in one process.
    @TaskLocal static var current: [ReminderAlert] = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let alerts = monitor.latest()?.alerts ?? []
        guard !alerts.isEmpty else { return try await next(request, context) }
        return try await Self.$current.withValue(alerts) { try await next(request, context) }
    }
}
