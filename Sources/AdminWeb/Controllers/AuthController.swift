import AdminDomain
import Hummingbird

/// Sign-in and sign-out.
struct AuthController {
    let services: PanelServices

    /// The form as posted; absent fields decode as empty rather than failing the request.
    struct LoginForm: Decodable {
        var email: String?
        var password: String?
        var next: String?
    }

    func addRoutes(to router: Router<PanelRequestContext>) {
        router.get(RouterPath(SiteURL.login().path), use: showLogin)
        router.post(RouterPath(SiteURL.login().path), use: submitLogin)
    }

    func addStaffRoutes(to routes: StaffRoutes) {
        routes.post(.logout, requires: .useOwnAccount, use: logout)
    }

    @Sendable func showLogin(request: Request, context: PanelRequestContext) async throws -> Response {
        let next = request.uri.queryParameters.get("next")
        if let token = services.sessionCookie.token(in: request),
           try await services.signIn.sessions.identity(forToken: token) != nil {
            return .redirect(to: Self.destination(next), type: .normal)
        }
        return loginPage(request, email: "", next: next, error: nil, status: .ok)
    }

    @Sendable func submitLogin(request: Request, context: PanelRequestContext) async throws -> Response {
        let form: LoginForm
        do {
            form = try await URLEncodedFormDecoder().decode(LoginForm.self, from: request, context: context)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw error
        } catch {
            // A body that is not a valid form is treated as an empty one: the page asks again.
            form = LoginForm()
        }
        let email = (form.email ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let password = form.password ?? ""
        guard !email.isEmpty, !password.isEmpty else {
            return loginPage(request, email: email, next: form.next, error: "Enter your email and password.", status: .badRequest)
        }
        let result = try await services.signIn.signIn(
            email: email, password: password, clientAddress: context.clientAddress,
            userAgent: request.headers[.userAgent])
        let token: String
        switch result {
        case let .signedIn(sessionToken, _):
            token = sessionToken
        case .rejected:
            return loginPage(request, email: email, next: form.next, error: "Wrong email or password.", status: .unauthorized)
        case let .throttled(seconds):
            let when = seconds > 90 ? "\((seconds + 59) / 60) minutes" : "\(seconds) seconds"
            var response = loginPage(request, email: email, next: form.next,
                                     error: "Too many failed attempts. Try again in \(when).", status: .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        // A session the browser already carried ends here: a sign-in never keeps a token
        // that existed before it.
        if let previous = services.sessionCookie.token(in: request) {
            try await services.signIn.sessions.delete(token: previous)
        }
        var response = Response.redirect(to: Self.destination(form.next), type: .normal)
        response.setCookie(services.sessionCookie.make(token: token))
        return response
    }

    @Sendable func logout(request: Request, context: StaffRequestContext) async throws -> Response {
        try await services.signIn.signOut(token: context.sessionToken, identity: context.identity,
                                          clientAddress: context.clientAddress)
        var response = Response.redirect(to: SiteURL.login().href, type: .normal)
        response.setCookie(services.sessionCookie.expired)
        return response
    }

    /// The sign-in form, with the double-submit token from the browser's cookie, or a new
    /// one set with the page.
    func loginPage(_ request: Request, email: String, next: String?, error: String?, status: HTTPResponse.Status) -> Response {
        let existing = request.cookies[CSRFToken.cookieName]?.value
        let token = existing.flatMap { SecureToken.isWellFormed($0) ? $0 : nil } ?? SecureToken.random()
        let model = LoginModel(csrfToken: token, email: email, next: next, error: error)
        var response = HTMLPage(LoginView(model: model), status: status).response()
        if token != existing {
            response.setCookie(Cookie(name: CSRFToken.cookieName, value: token, path: "/",
                                      secure: services.sessionCookie.secure, httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// Where to go after signing in: the page asked for, if it is one of ours.
    static func destination(_ next: String?) -> String {
        guard let next, SiteURL.isSafeRedirect(next), next != SiteURL.login().path else { return SiteURL.dashboard.href }
        return next
    }
}
