import HTTPTypes
import Hummingbird

/// Headers every response carries, pages, errors and static files alike.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Served over TLS (the `--secure-cookies` setting): browsers are told to keep to HTTPS.
    let tls: Bool

    static var contentSecurityPolicy: String {
        "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.contentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        if tls {
            response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains"
        }
        // Pages show personal data: never keep them in a cache. Static files may be cached.
        if !request.uri.path.hasPrefix("/static/") {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

extension HTTPField.Name {
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
