import AdminDomain
import Hummingbird

/// One's own account: the sessions list, "sign out everywhere else", and the password.
struct AccountController {
    let account: AccountSecurity
    /// Asks for the password again before a change, and lists the sessions.
    let signIn: SignInService
    /// Set again with the rotated token after a password change.
    let sessionCookie: PanelCookie

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.accountSessions(), requires: .useOwnAccount, query: ["ended"], use: sessions)
        routes.post(.endOtherSessions, requires: .useOwnAccount, fields: ["password"], use: endOthers)
        routes.get(.password, requires: .useOwnAccount, query: ["notice"], use: passwordPage)
        routes.post(
            .password, requires: .useOwnAccount, fields: ["current", "password", "repeat"], use: changePassword)
    }

    @Sendable func sessions(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        // Only a small count is ever shown back; another value is ignored.
        let ended = request.queryFields["ended"].flatMap(Int.init).flatMap { (0...10_000).contains($0) ? $0 : nil }
        let model = try await SessionsModel.load(signIn.sessions, (context.identity, context.sessionToken, ended))
        return HTMLPage(SessionsView(model: model, viewer: context.viewer))
    }

    /// Asks for the password again first: a borrowed session cannot lock its owner out.
    @Sendable func endOthers(request: Request, context: StaffRequestContext) async throws -> Response {
        let password = try await request.formFields()["password"] ?? ""
        var (refusal, wait): (String?, Int?) = (nil, nil)
        switch try await signIn.confirmAgain(
            context.identity, with: .password(password), clientAddress: context.clientAddress)
        {
        case .confirmed: break
        case .wrong: refusal = "Type your password to sign out your other sessions."
        case .throttled(let seconds): (refusal, wait) = (Self.throttledSentence(seconds), seconds)
        }
        if let refusal {
            var model = try await SessionsModel.load(signIn.sessions, (context.identity, context.sessionToken, nil))
            model.error = refusal
            var response = HTMLPage(
                SessionsView(model: model, viewer: context.viewer),
                status: wait == nil ? .unprocessableContent : .tooManyRequests
            ).response()
            // Throttled as a sign-in is: 429 and how long to wait.
            if let wait { response.headers[.retryAfter] = String(wait) }
            return response
        }
        let ended = try await account.endOtherSessions(
            context.identity, session: context.sessionToken,
            from: context.clientAddress)
        return .redirect(to: SiteURL.accountSessions(ended: ended).href, type: .normal)
    }

    static func throttledSentence(_ seconds: Int) -> String {
        "Too many wrong passwords. Try again in \(Format.count(seconds, "second", "seconds"))."
    }

    @Sendable func passwordPage(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let changed = request.queryFields["notice"] == "changed"
        return HTMLPage(
            PasswordView(
                model: PasswordModel(notice: changed ? "Password changed. Your other sessions have ended." : nil),
                viewer: context.viewer))
    }

    /// The current password, and the new one twice against the policy: every refusal of one
    /// submission said at once (issue 46: only "the two new passwords differ" was said, then
    /// the next). Every other session ends, and this one continues under a new token.
    @Sendable func changePassword(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = try await request.formFields()
        func refuse(_ errors: [String], _ status: HTTPResponse.Status) -> Response {
            HTMLPage(PasswordView(model: PasswordModel(errors: errors), viewer: context.viewer), status: status)
                .response()
        }
        let password = form["password"] ?? ""
        var problems: [String] = []
        if password != form["repeat"] { problems.append("The two new passwords differ.") }
        if let weak = await PasswordPolicy.problem(with: password, email: context.identity.email) {
            problems.append(weak.prefix(1).uppercased() + weak.dropFirst() + ".")
        }
        switch try await signIn.confirmAgain(
            context.identity, with: .password(form["current"] ?? ""),
            clientAddress: context.clientAddress)
        {
        case .confirmed: break
        case .wrong: problems.insert("The current password is not right.", at: 0)
        case .throttled(let seconds):
            var response = refuse([Self.throttledSentence(seconds)] + problems, .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        guard problems.isEmpty else { return refuse(problems, .unprocessableContent) }
        let token: String
        do {
            token = try await account.changePassword(
                context.identity, to: password, session: context.sessionToken,
                from: context.clientAddress)
        } catch let AdminStoreError.weakPassword(reason) {
            return refuse([reason.prefix(1).uppercased() + reason.dropFirst() + "."], .unprocessableContent)
        }
        var response = Response.redirect(to: SiteURL.passwordChanged.href, type: .normal)
        response.setCookie(sessionCookie.make(token: token))
        return response
    }
}
