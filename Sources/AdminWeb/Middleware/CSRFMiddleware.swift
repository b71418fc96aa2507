import AdminDomain
import Foundation
import Hummingbird

/// Refuses a state-changing request (POST, PUT, PATCH, DELETE) that comes from another
/// origin or does not echo its CSRF token: 403, audited. Safe methods pass untouched,
/// which is why no GET handler may change state.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = PanelRequestContext
    let cookies: PanelCookies
    /// Refusals are counted and written in batches, like other unauthenticated events.
    let events: AuditAggregator
    /// Which routes show their form again when it is refused.
    let forms: FormRules

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard [.post, .put, .patch, .delete].contains(request.method) else {
            return try await next(request, context)
        }
        var request = request
        // Read the body once here; handlers read it again from memory.
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let form = FormFields(String(buffer: body))
        let given = form[CSRFToken.fieldName] ?? ""
        // The panel speaks plain http; behind TLS (`--secure-cookies`, whose cookies browsers
        // send over https only) it is https; a trusted proxy's word comes first.
        let scheme = context.forwardedScheme ?? (cookies.session.secure ? "https" : "http")
        // A token that cannot even be decoded is a broken form, not an out-of-date one: its
        // sentence names the field, as every other broken escape's does (docs/security.md).
        if Self.isSameOrigin(request, scheme: scheme), form.brokenField == CSRFToken.fieldName,
            let sentence = form.brokenEscape
        {
            await events.record(
                .csrfRejected, address: context.clientAddress, target: request.uri.path, reason: "unreadable form")
            throw PanelError(status: .badRequest, sentence: sentence)
        }
        let reason: String? =
            if !Self.isSameOrigin(request, scheme: scheme) {
                "cross-origin"
            } else if form.repeated() != nil {
                // A field sent twice: no form of ours sends that. A broken escape is refused after
                // this check (`FormTextMiddleware`), with a sentence naming its field.
                "unreadable form"
            } else if !Self.tokenMatches(
                given, request: request, sessionCookie: cookies.session,
                loginFormCookie: cookies.loginForm)
            {
                given.isEmpty ? "missing token" : "wrong token"
            } else {
                nil
            }
        guard let reason else { return try await next(request, context) }
        await events.record(.csrfRejected, address: context.clientAddress, target: request.uri.path, reason: reason)
        if reason != "cross-origin", reason != "unreadable form",
            (request.headers[.origin] ?? request.headers[.referer]) != nil,
            forms.rule(request.method, endpoint: context.endpointPath).showAgain != nil,
            !Self.signInPaths.contains(request.uri.path)
        {
            // A signed-in form that shows itself again: with what was typed and this session's
            // token, or, with no session, kept for the next sign-in (RequireStaffMiddleware).
            // The refusal on the context means the route never carries it out. Only when the
            // browser named this panel as the form's origin: another site's form never comes
            // back filled in.
            var context = context
            context.formRefusal = .outOfDate
            return try await next(request, context)
        }
        // Mostly a page left open while its session changed: say so, and how to get the
        // form through (the browser's Back keeps what was typed; forms with more to type
        // than a button show themselves again, above).
        if reason == "unreadable form" {
            throw PanelError(
                status: .badRequest,
                sentence:
                    "This form could not be read (a field sent twice, or text that is not form-encoded), "
                    + "so it was refused and nothing was changed. Reload the page and send it again."
            )
        }
        throw PanelError(
            status: .forbidden,
            sentence: reason == "cross-origin"
                ? "This form was sent from another site, so it was refused. Nothing was changed."
                : "This form is out of date (it was opened before a sign-in or sign-out, here or in another tab), "
                    + "so it was refused and nothing was changed. Go back, reload the page and send it again."
        )
    }

    /// Origin, or else Referer, when the browser sends one, must name this panel's scheme,
    /// host and port: `https://HOST` is another origin than the plain-http `http://HOST`.
    static func isSameOrigin(_ request: Request, scheme: String) -> Bool {
        guard let claimed = request.headers[.origin] ?? request.headers[.referer] else { return true }
        guard let host = request.head.authority, let url = URLComponents(string: claimed), let claimedHost = url.host,
            url.scheme?.lowercased() == scheme
        else { return false }
        let claimedAuthority = url.port.map { "\(claimedHost):\($0)" } ?? claimedHost
        return claimedAuthority.lowercased() == host.lowercased()
    }

    /// The sign-in steps, where the login form's double-submit cookie stands in for a session.
    static let signInPaths: Set<String> = [SiteURL.login().path, SiteURL.secondFactor().path]

    /// With a session cookie, only the token derived from the session: the login form's
    /// double-submit pair is one an attacker who can set a cookie can forge, so it counts
    /// only on the sign-in steps (where a browser may still carry an old session).
    static func tokenMatches(
        _ given: String, request: Request, sessionCookie: PanelCookie, loginFormCookie: PanelCookie
    ) -> Bool {
        let session = sessionCookie.token(in: request).flatMap { $0.isEmpty ? nil : $0 }
        if let session, CSRFToken.matches(given, CSRFToken.forSession(session)) {
            return true
        }
        guard session == nil || signInPaths.contains(request.uri.path),
            let loginToken = loginFormCookie.token(in: request), !loginToken.isEmpty
        else { return false }
        return CSRFToken.matches(given, loginToken)
    }
}
