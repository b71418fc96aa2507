import AdminDomain
import Hummingbird

/// Lets a request through only with a live session; otherwise sends the browser to the
/// sign-in page, remembering where it was going.
struct RequireStaffMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let services: PanelServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = services.sessionCookie.token(in: request),
           let identity = try await services.signIn.sessions.identity(forToken: token) {
            context.identity = identity
            context.notes.staffID = identity.adminID
            context.sessionToken = token
            return try await next(request, context)
        }
        let wanted = request.method == .get ? request.uri.description : nil
        var response = Response.redirect(to: SiteURL.login(next: wanted).href, type: .normal)
        if services.sessionCookie.token(in: request) != nil {
            response.setCookie(services.sessionCookie.expired)
        }
        return response
    }
}
