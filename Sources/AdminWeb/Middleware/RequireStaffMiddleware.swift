import AdminDomain
import Hummingbird

/// Lets a request through only with a live session; otherwise sends the browser to the
/// sign-in page, remembering where it was going.
struct RequireStaffMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let sessionCookie: PanelCookie
    let sessions: SessionStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = sessionCookie.token(in: request),
           let identity = try await sessions.identity(forToken: token) {
            context.identity = identity
            context.notes.staffID = identity.adminID
            context.sessionToken = token
            return try await next(request, context)
        }
        let wanted = request.method == .get ? request.uri.description : nil
        let hadSession = sessionCookie.token(in: request).map { !$0.isEmpty } ?? false
        var response = Response.redirect(to: SiteURL.login(next: wanted, sessionEnded: hadSession).href, type: .normal)
        if hadSession {
            response.setCookie(sessionCookie.expired)
        }
        return response
    }
}
