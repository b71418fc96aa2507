import AdminDomain
import Hummingbird

/// Whoever signed in with a one-time password an admin generated reaches only the
/// password page and sign-out until they choose their own.
struct RequirePasswordChangeMiddleware: RouterMiddleware {
    typealias Context = StaffRequestContext

    static let openBeforeChange: Set<String> = [SiteURL.password.path, SiteURL.logout.path]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard context.identity.mustChangePassword, !Self.openBeforeChange.contains(request.uri.path) else {
            return try await next(request, context)
        }
        return .redirect(to: SiteURL.password.href, type: .normal)
    }
}
