import AdminDomain
import Hummingbird

/// One's own second factor: enrol, new recovery codes, turn off.
struct TwoFactorController {
    let account: AccountSecurity
    /// Asks for the password or a code again before a change.
    let signIn: SignInService
    /// Which roles must have a second factor (and so may not turn it off).
    let policy: TwoFactorPolicy
    /// Set again with the rotated token once two-factor is on.
    let sessionCookie: PanelCookie
    /// New recovery codes, held for their one showing after the redirect.
    let shownOnce: ShownOnce

    struct CodeForm {
        var code, password: String?
    }

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.twoFactor, requires: .useOwnAccount, query: ["notice"], use: show)
        routes.post(.beginTwoFactor, requires: .useOwnAccount, use: begin)
        routes.post(.confirmTwoFactor, requires: .useOwnAccount, fields: ["code", "password"], use: confirm)
        routes.post(.newRecoveryCodes, requires: .useOwnAccount, fields: ["code"], use: newRecoveryCodes)
        routes.post(.disableTwoFactor, requires: .useOwnAccount, fields: ["code"], use: disable)
    }

    /// After a change: its notice, and the recovery codes it made, shown this once.
    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> Response {
        let notice = request.queryFields["notice"].flatMap(TwoFactorNotice.init(rawValue:))
        var codes: [String]?
        if case .recoveryCodes(let held) = await shownOnce.take(for: context.sessionToken) { codes = held }
        return try await page(context, notice: notice?.sentence, recoveryCodes: codes)
    }

    /// Makes the key to enrol (or keeps the one begun) and shows it on the page.
    @Sendable func begin(request: Request, context: StaffRequestContext) async throws -> Response {
        do {
            _ = try await signIn.twoFactor.beginEnrolment(adminID: context.identity.adminID)
        } catch TwoFactorError.alreadyEnabled {
            // Already on: the page says so.
        }
        return .redirect(to: SiteURL.twoFactor.href, type: .normal)
    }

    /// The password again as well as the first code: a session left open cannot bind a
    /// stranger's phone to the account.
    @Sendable func confirm(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = try await typed(request, context)
        switch try await signIn.confirmAgain(
            context.identity, with: .password(form.password ?? ""),
            clientAddress: context.clientAddress)
        {
        case .confirmed: break
        case .wrong:
            return try await page(
                context, error: "Type your password as well as the code.", status: .unprocessableContent)
        case .throttled(let seconds): return try await throttledPage(context, seconds)
        }
        let enabled: TwoFactorEnabled?
        do {
            enabled = try await account.enableTwoFactor(
                context.identity, code: form.code ?? "", session: context.sessionToken,
                from: context.clientAddress)
        } catch TwoFactorError.alreadyEnabled {
            return try await page(context, error: "Two-factor sign-in is already on.", status: .conflict)
        } catch TwoFactorError.notStarted {
            return try await page(
                context, error: "Set up two-factor first: the button below makes your key.", status: .conflict)
        }
        guard let enabled, let token = enabled.sessionToken else {
            return try await page(
                context, error: "That code is not right. Check the phone's clock and type the newest code.",
                status: .unprocessableContent)
        }
        await shownOnce.hold(.recoveryCodes(enabled.recoveryCodes), for: token)
        var response = Response.redirect(to: SiteURL.twoFactorDone(.enabled).href, type: .normal)
        response.setCookie(sessionCookie.make(token: token))
        return response
    }

    @Sendable func newRecoveryCodes(request: Request, context: StaffRequestContext) async throws -> Response {
        if let refusal = try await confirmAgain(request, context) { return refusal }
        let codes = try await account.newRecoveryCodes(context.identity, from: context.clientAddress)
        await shownOnce.hold(.recoveryCodes(codes), for: context.sessionToken)
        return .redirect(to: SiteURL.twoFactorDone(.newCodes).href, type: .normal)
    }

    @Sendable func disable(request: Request, context: StaffRequestContext) async throws -> Response {
        guard !policy.isRequired(for: context.identity.role) else {
            return try await page(
                context, error: "Your role needs two-factor sign-in, so it stays on.", status: .conflict)
        }
        if let refusal = try await confirmAgain(request, context) { return refusal }
        try await account.disableTwoFactor(context.identity, session: context.sessionToken, from: context.clientAddress)
        return .redirect(to: SiteURL.twoFactorDone(.disabled).href, type: .normal)
    }

    /// A current code, checked and spent; nil when it was right, else the page saying why not.
    private func confirmAgain(_ request: Request, _ context: StaffRequestContext) async throws -> Response? {
        let code = try await typed(request, context).code ?? ""
        switch try await signIn.confirmAgain(context.identity, with: .code(code), clientAddress: context.clientAddress)
        {
        case .confirmed: return nil
        case .wrong: return try await page(context, error: "That code is not right.", status: .unprocessableContent)
        case .throttled(let seconds): return try await throttledPage(context, seconds)
        }
    }

    private func throttledPage(_ context: StaffRequestContext, _ seconds: Int) async throws -> Response {
        var response = try await page(
            context, error: "Too many wrong attempts. Try again in \(Format.count(seconds, "second", "seconds")).",
            status: .tooManyRequests)
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    private func typed(_ request: Request, _ context: StaffRequestContext) async throws -> CodeForm {
        let form = try await request.formFields()
        return CodeForm(code: form["code"], password: form["password"])
    }

    private func page(
        _ context: StaffRequestContext, notice: String? = nil, error: String? = nil,
        recoveryCodes: [String]? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var model = try await TwoFactorModel.load(.init(twoFactor: signIn.twoFactor, policy: policy), context.identity)
        model.notice = notice
        model.error = error
        model.recoveryCodes = recoveryCodes
        return HTMLPage(TwoFactorView(model: model, viewer: context.viewer), status: status).response()
    }
}
