import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// One line per request: method, route (the pattern, not the path: paths carry user ids
/// and queries carry search text), status, time, request id and the staff member.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: Int(response.status.code), took: clock.now - started)
            return response
        } catch {
            // A client that went away mid-request is no server error: it is logged as gone.
            let status =
                Self.isDisconnect(error)
                ? "client disconnected"
                : String((error as? any HTTPResponseError).map { Int($0.status.code) } ?? 500)
            log(request, context, status: status, took: clock.now - started)
            throw error
        }
    }

    /// The errors a closed connection raises while a request is read or answered: also a
    /// body cut short when the client went away or its body timeout closed the connection.
    static func isDisconnect(_ error: any Error) -> Bool {
        if let parser = error as? HTTPParserError { return parser == .invalidEOFState || parser == .closedConnection }
        return error is CancellationError || error is ChannelError || error is IOError
    }

    private func log(_ request: Request, _ context: Context, status: Int, took: Duration) {
        log(request, context, status: String(status), took: took)
    }

    private func log(_ request: Request, _ context: Context, status: String, took: Duration) {
        let milliseconds = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "route": "\(context.endpointPath ?? "unmatched")",
                "status": "\(status)",
                "ms": "\((milliseconds * 10).rounded() / 10)",
                "staff_id": "\(context.notes.staffID.map(String.init) ?? "-")",
                "client": "\(context.clientAddress ?? "-")",
            ])
    }
}
