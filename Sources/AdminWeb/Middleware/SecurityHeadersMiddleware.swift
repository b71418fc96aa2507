import HTTPTypes
import Hummingbird

/// Headers every response carries, pages, errors and static files alike (`SecurityHeaders`).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Served over TLS (the `--secure-cookies` setting): browsers are told to keep to HTTPS.
    let tls: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        SecurityHeaders.add(to: &response.headers, tls: tls, cacheable: request.uri.path.hasPrefix("/static/"))
        return response
    }
}
