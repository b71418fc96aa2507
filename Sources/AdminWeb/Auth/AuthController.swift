import AdminDomain
import Hummingbird

/// Sign-in and sign-out.
struct AuthController {
    let signIn: SignInService
    let cookies: PanelCookies

    /// The sign-in pages' forms and query strings, which need no session.
    static func addFormRules(to forms: inout FormRules) {
        // A field with a control character is refused on the page itself, before any lookup:
        // it counts as no failed sign-in.
        forms.add(
            FormRules.Rule(fields: ["email", "password", "next"], readsRefusal: true), .post, SiteURL.login().path)
        forms.add(FormRules.Rule(fields: ["code", "next"], readsRefusal: true), .post, SiteURL.secondFactor().path)
        forms.add(FormRules.Rule(fields: ["next", "ended"]), .get, SiteURL.login().path)
        forms.add(FormRules.Rule(fields: ["next"]), .get, SiteURL.secondFactor().path)
    }

    func addRoutes(to router: Router<PanelRequestContext>) {
        router.get(RouterPath(SiteURL.login().path), use: showLogin)
        router.post(RouterPath(SiteURL.login().path), use: submitLogin)
        router.get(RouterPath(SiteURL.secondFactor().path), use: showSecondFactor)
        router.post(RouterPath(SiteURL.secondFactor().path), use: submitSecondFactor)
    }

    func addStaffRoutes(to routes: inout StaffRoutes) {
        routes.post(.logout, requires: .useOwnAccount, use: logout)
    }

    @Sendable func showLogin(request: Request, context: PanelRequestContext) async throws -> Response {
        let next = request.queryFields["next"]
        if let token = cookies.session.token(in: request),
            try await signIn.sessions.identity(forToken: token) != nil
        {
            return .redirect(to: Self.destination(next), type: .normal)
        }
        let ended = request.queryFields["ended"] == "1"
        var sentences =
            ended ? ["Your session has ended: you were away a while, or signed out elsewhere. Sign in again."] : []
        if cookies.keptForm.token(in: request).map({ !$0.isEmpty }) == true {
            sentences.append(
                "Your form was not sent, but what you typed is kept: after signing in you are back on it, filled in, "
                    + "to check and send again."
            )
        }
        return loginPage(
            request, email: "", next: next, error: sentences.isEmpty ? nil : sentences.joined(separator: " "),
            status: .ok)
    }

    @Sendable func submitLogin(request: Request, context: PanelRequestContext) async throws -> Response {
        let form = try await request.formFields(upTo: context.maxUploadSize)
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = context.formRefusal {
            return loginPage(request, email: email, next: form["next"], error: refusal.sentence, status: refusal.status)
        }
        let password = form["password"] ?? ""
        guard !email.isEmpty, !password.isEmpty else {
            return loginPage(
                request, email: email, next: form["next"], error: "Enter your email and password.", status: .badRequest)
        }
        let result = try await signIn.signIn(
            email: email, password: password, clientAddress: context.clientAddress,
            userAgent: request.headers[.userAgent])
        switch result {
        case .signedIn(let token, _):
            return try await signedIn(request, token: token, next: form["next"])
        case .needsSecondFactor(let challenge):
            try await endPreviousSession(request)
            var response = Response.redirect(to: SiteURL.secondFactor(next: form["next"]).href, type: .normal)
            response.setCookie(cookies.secondFactor.make(token: challenge))
            return response
        case .rejected:
            return loginPage(
                request, email: email, next: form["next"], error: "Wrong email or password.", status: .unauthorized)
        case .oneTimePasswordExpired:
            return loginPage(
                request, email: email, next: form["next"],
                error: "That one-time password has expired. Ask an admin for a new one.", status: .unauthorized)
        case .throttled(let seconds):
            return throttledPage(seconds) { error, status in
                loginPage(request, email: email, next: form["next"], error: error, status: status)
            }
        }
    }

    @Sendable func showSecondFactor(request: Request, context: PanelRequestContext) async throws -> Response {
        guard let challenge = cookies.secondFactor.token(in: request),
            try await signIn.challenges.adminID(forToken: challenge) != nil
        else { return .redirect(to: SiteURL.login().href, type: .normal) }
        return codePage(request, next: request.queryFields["next"], error: nil, status: .ok)
    }

    @Sendable func submitSecondFactor(request: Request, context: PanelRequestContext) async throws -> Response {
        let form = try await request.formFields(upTo: context.maxUploadSize)
        if let refusal = context.formRefusal {
            return codePage(request, next: form["next"], error: refusal.sentence, status: refusal.status)
        }
        let result = try await signIn.completeSecondFactor(
            challenge: cookies.secondFactor.token(in: request) ?? "", code: form["code"] ?? "",
            clientAddress: context.clientAddress, userAgent: request.headers[.userAgent])
        switch result {
        case .signedIn(let token, _, _):
            var response = try await signedIn(request, token: token, next: form["next"])
            response.setCookie(cookies.secondFactor.expired)
            return response
        case .rejected(let triesLeft) where triesLeft > 0:
            let tries = triesLeft == 1 ? "1 try" : "\(triesLeft) tries"
            return codePage(
                request, next: form["next"], error: "That code is not right. \(tries) left.", status: .unauthorized)
        case .rejected, .expired:
            var response = loginPage(
                request, email: "", next: form["next"],
                error: "That sign-in has ended. Enter your password again.", status: .unauthorized)
            response.setCookie(cookies.secondFactor.expired)
            return response
        case .throttled(let seconds):
            return throttledPage(seconds) { error, status in
                codePage(request, next: form["next"], error: error, status: status)
            }
        }
    }

    /// The session cookie for a completed sign-in, and on to the page asked for.
    private func signedIn(_ request: Request, token: String, next: String?) async throws -> Response {
        try await endPreviousSession(request)
        var response = Response.redirect(to: Self.destination(next), type: .normal)
        response.setCookie(cookies.session.make(token: token))
        return response
    }

    /// A session the browser already carried ends here: a sign-in never keeps a token
    /// that existed before it.
    private func endPreviousSession(_ request: Request) async throws {
        if let previous = cookies.session.token(in: request) {
            try await signIn.sessions.delete(token: previous)
        }
    }

    private func throttledPage(_ seconds: Int, _ page: (String, HTTPResponse.Status) -> Response) -> Response {
        let when =
            seconds > 90
            ? Format.count((seconds + 59) / 60, "minute", "minutes") : Format.count(seconds, "second", "seconds")
        var response = page("Too many failed attempts. Try again in \(when).", .tooManyRequests)
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    @Sendable func logout(request: Request, context: StaffRequestContext) async throws -> Response {
        try await signIn.signOut(
            token: context.sessionToken, identity: context.identity,
            clientAddress: context.clientAddress)
        var response = Response.redirect(to: SiteURL.login().href, type: .normal)
        response.setCookie(cookies.session.expired)
        return response
    }

    func loginPage(_ request: Request, email: String, next: String?, error: String?, status: HTTPResponse.Status)
        -> Response
    {
        beforeSignInPage(request) { token in
            HTMLPage(
                LoginView(model: LoginModel(csrfToken: token, email: email, next: next, error: error)), status: status)
        }
    }

    func codePage(_ request: Request, next: String?, error: String?, status: HTTPResponse.Status) -> Response {
        beforeSignInPage(request) { token in
            HTMLPage(
                SecondFactorView(model: SecondFactorModel(csrfToken: token, next: next, error: error)), status: status)
        }
    }

    /// A page whose form posts before there is a session: it carries the double-submit token
    /// from the browser's cookie, or a new one set with the page.
    private func beforeSignInPage(_ request: Request, _ page: (String) -> HTMLPage) -> Response {
        let existing = cookies.loginForm.token(in: request)
        let token = existing.flatMap { SecureToken.isWellFormed($0) ? $0 : nil } ?? SecureToken.random()
        var response = page(token).response()
        if token != existing {
            response.setCookie(cookies.loginForm.make(token: token))
        }
        return response
    }

    /// Where to go after signing in: the page asked for, if it is one of ours.
    static func destination(_ next: String?) -> String {
        guard let next, SiteURL.isSafeRedirect(next), next != SiteURL.login().path else {
            return SiteURL.dashboard.href
        }
        return next
    }
}
