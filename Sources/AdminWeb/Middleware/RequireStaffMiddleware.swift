import AdminDomain
import Hummingbird

/// Lets a request through only with a live session; otherwise sends the browser to the
/// sign-in page, remembering where it was going. A form that shows itself again is kept for
/// the next sign-in, which leads back to it filled in (`FormStash`).
struct RequireStaffMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let sessionCookie: PanelCookie
    let sessions: SessionStore
    let forms: FormRules
    let stash: FormStash
    let stashCookie: PanelCookie

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let token = sessionCookie.token(in: request),
            let identity = try await sessions.identity(forToken: token)
        {
            context.identity = identity
            context.notes.staffID = identity.adminID
            context.sessionToken = token
            return try await next(request, context)
        }
        var wanted = request.method == .get ? request.uri.description : nil
        var kept: String?
        let rule = forms.rule(request.method, endpoint: context.endpointPath)
        if request.method == .post, rule.showAgain != nil, let endpoint = context.endpointPath {
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            let page = rule.page?(request.uri.path) ?? request.uri.path
            kept = await stash.keep(FormFields(String(buffer: body)), route: FormRules.key(.post, endpoint), page: page)
            wanted = page
        }
        let hadSession = sessionCookie.token(in: request).map { !$0.isEmpty } ?? false
        var response = Response.redirect(to: SiteURL.login(next: wanted, sessionEnded: hadSession).href, type: .normal)
        if hadSession {
            response.setCookie(sessionCookie.expired)
        }
        if let kept {
            response.setCookie(stashCookie.make(token: kept))
        }
        return response
    }
}
