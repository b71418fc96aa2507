import AdminDomain
import Hummingbird

/// Lets a request through only with a live session; otherwise sends the browser to the
/// sign-in page, remembering where it was going.
struct RequireStaffMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let services: PanelServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = request.cookies[SessionCookie.name]?.value,
           let identity = try await services.signIn.sessions.identity(forToken: token) {
            context.identity = identity
            context.sessionToken = token
            return try await next(request, context)
        }
        let wanted = request.method == .get ? request.uri.description : nil
        var response = Response.redirect(to: SiteURL.login(next: wanted).href, type: .normal)
        if request.cookies[SessionCookie.name] != nil {
            response.setCookie(SessionCookie.expired(secure: services.secureCookies))
        }
        return response
    }
}

enum SessionCookie {
    static let name = "panel_session"

    static func make(token: String, secure: Bool) -> Cookie {
        Cookie(name: name, value: token, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    static func expired(secure: Bool) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }
}
