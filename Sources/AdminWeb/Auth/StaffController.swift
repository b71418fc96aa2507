import AdminDomain
import Hummingbird

/// Staff accounts for admins: create, change role, disable, enable, reset password.
struct StaffController {
    let staff: StaffAdministration
    let admins: AdminStore
    /// A generated password, held for its one showing after the redirect.
    let shownOnce: ShownOnce
    /// Which roles need a second factor, for the list's two-factor column.
    var twoFactorPolicy = TwoFactorPolicy()

    struct AccountForm {
        var email, role: String?
    }

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.staff(), requires: .manageStaff, query: ["notice", "sort", "dir"], use: list)
        routes.post(
            .createStaff, requires: .manageStaff, fields: ["email", "role"],
            form: FormRules.Rule(showAgain: showCreateAgain, page: { _ in SiteURL.staff().path }), use: create)
        // A refused add is shown at the address it was posted to: opened again from the
        // address bar, that address leads to the staff page, never to a 404.
        routes.get(.createStaff, requires: .manageStaff) { _, _ -> Response in
            .redirect(to: SiteURL.staff().href, type: .normal)
        }
        routes.post(.staffAction(id: nil, .role), requires: .manageStaff, fields: ["role"], use: changeRole)
        routes.post(.staffAction(id: nil, .disable), requires: .manageStaff, use: disable)
        routes.post(.staffAction(id: nil, .enable), requires: .manageStaff, use: enable)
        routes.post(.staffAction(id: nil, .resetPassword), requires: .manageStaff, use: resetPassword)
        routes.post(.staffAction(id: nil, .resetTwoFactor), requires: .manageStaff, use: resetTwoFactor)
        routes.post(.staffAction(id: nil, .endSessions), requires: .manageStaff, use: endSessions)
        routes.post(.endAllSessions, requires: .manageStaff, use: endAllSessions)
        for action in [StaffAction.disable, .resetPassword, .resetTwoFactor, .endSessions] {
            routes.get(
                .staffAction(id: nil, action), requires: .manageStaff, use: confirm(DestructiveStaffAction(action)!))
        }
        routes.get(.endAllSessions, requires: .manageStaff, use: confirm(.endAllSessions))
    }

    /// The page that asks before a destructive action; the action itself is the POST.
    func confirm(_ action: DestructiveStaffAction) -> @Sendable (Request, StaffRequestContext) async throws -> HTMLPage
    {
        { [staff, twoFactorPolicy] _, context in
            var id: Int64?
            if action != .endAllSessions {
                guard let given = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.notFound) }
                id = given
            }
            var model = try await StaffConfirmModel.load(staff, (action, id))
            model.twoFactorPolicy = twoFactorPolicy
            return HTMLPage(StaffConfirmView(model: model, viewer: context.viewer))
        }
    }

    /// After an action: its notice, and the password it generated, shown this once.
    @Sendable func list(request: Request, context: StaffRequestContext) async throws -> Response {
        let parameters = request.queryFields
        let notice = parameters["notice"].flatMap(StaffNotice.init(rawValue:))
        // An order the list does not offer is refused, never read as the default order.
        var sort = StaffModel.SortKey.email
        if let text = parameters["sort"] {
            guard let key = StaffModel.SortKey(rawValue: text) else {
                throw PanelError(
                    status: .badRequest,
                    sentence: "The staff list cannot be sorted by “\(text.prefix(60))”: "
                        + "it sorts by email or created.")
            }
            sort = key
        }
        let order = try SortOrder(query: parameters, default: .ascending)
        var generated: (email: String, password: String)?
        if case .oneTimePassword(let email, let password) = await shownOnce.take(for: context.sessionToken) {
            generated = (email, password)
        }
        var model = try await StaffModel.load(
            staff, .init(notice: notice?.sentence, oneTimePassword: generated), sort: sort, order: order)
        model.twoFactorPolicy = twoFactorPolicy
        return HTMLPage(StaffView(model: model, viewer: context.viewer)).response()
    }

    @Sendable func create(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = try await decode(request, context)
        let email = (form.email ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let role = form.role.flatMap(Role.init(rawValue:)) else {
            return try await page(
                context, message: .init(error: "Choose a role.", typedEmail: email, errorField: StaffView.roleField),
                status: .badRequest)
        }
        let password = await GeneratedPassword.make(for: email)
        let admin: Admin
        do {
            admin = try await staff.create(
                email: email, password: password, role: role, oneTime: true, by: actor(context))
        } catch let error as AdminStoreError {
            return try await page(
                context,
                message: .init(
                    error: sentence(error), typedEmail: email, typedRole: role,
                    errorField: error == .invalidEmail || error == .emailTaken ? StaffView.emailField : nil),
                status: .badRequest)
        }
        await shownOnce.hold(.oneTimePassword(email: admin.email, password: password), for: context.sessionToken)
        return .redirect(to: SiteURL.staff(notice: .created).href, type: .normal)
    }

    @Sendable func changeRole(request: Request, context: StaffRequestContext) async throws -> Response {
        guard let role = try await decode(request, context).role.flatMap(Role.init(rawValue:)) else {
            return try await page(context, error: "Choose a role.", status: .badRequest)
        }
        return try await act(context, notice: .roleChanged) { account, actor in
            try await staff.changeRole(account, to: role, by: actor)
        }
    }

    @Sendable func disable(request: Request, context: StaffRequestContext) async throws -> Response {
        try await act(context, notice: .disabled) { account, actor in try await staff.disable(account, by: actor) }
    }

    @Sendable func enable(request: Request, context: StaffRequestContext) async throws -> Response {
        try await act(context, notice: .enabled) { account, actor in try await staff.enable(account, by: actor) }
    }

    @Sendable func resetPassword(request: Request, context: StaffRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self),
            let admin = try await admins.find(id: id)
        else { throw HTTPError(.notFound) }
        let password = await GeneratedPassword.make(for: admin.email)
        try await staff.resetPassword(.id(id), to: password, oneTime: true, by: actor(context))
        await shownOnce.hold(.oneTimePassword(email: admin.email, password: password), for: context.sessionToken)
        return .redirect(to: SiteURL.staff(notice: .passwordReset).href, type: .normal)
    }

    @Sendable func resetTwoFactor(request: Request, context: StaffRequestContext) async throws -> Response {
        // A role that may sign in without a second factor is not asked to set one up again.
        guard let id = context.parameters.get("id", as: Int64.self), let admin = try await admins.find(id: id)
        else { throw HTTPError(.notFound) }
        let notice: StaffNotice =
            twoFactorPolicy.isRequired(for: admin.role) ? .twoFactorReset : .twoFactorResetOptional
        return try await act(context, notice: notice) { account, actor in
            try await staff.resetTwoFactor(account, by: actor)
        }
    }

    @Sendable func endSessions(request: Request, context: StaffRequestContext) async throws -> Response {
        try await act(context, notice: .sessionsEnded) { account, actor in
            try await staff.endSessions(account, keepingSession: context.sessionToken, by: actor)
        }
    }

    @Sendable func endAllSessions(request: Request, context: StaffRequestContext) async throws -> Response {
        try await staff.endAllSessions(keepingSession: context.sessionToken, by: actor(context))
        return .redirect(to: SiteURL.staff(notice: .allSessionsEnded).href, type: .normal)
    }

    /// Runs one use case on the account named in the path (it audits itself) and redirects
    /// with a notice, or shows why it was refused.
    private func act<Result>(
        _ context: StaffRequestContext, notice: StaffNotice,
        _ change: (AccountReference, AuditActor) async throws -> Result
    ) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.notFound) }
        do {
            _ = try await change(.id(id), actor(context))
        } catch let error as AdminStoreError {
            if case .notFound = error { throw HTTPError(.notFound) }
            return try await page(context, error: sentence(error), status: .conflict)
        }
        return .redirect(to: SiteURL.staff(notice: notice).href, type: .normal)
    }

    private func actor(_ context: StaffRequestContext) -> AuditActor {
        .staff(context.identity, from: context.clientAddress)
    }

    private func page(
        _ context: StaffRequestContext, notice: String? = nil, error: String? = nil,
        oneTimePassword: (email: String, password: String)? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        try await page(
            context, message: .init(notice: notice, error: error, oneTimePassword: oneTimePassword), status: status)
    }

    private func page(_ context: StaffRequestContext, message: StaffModel.Message, status: HTTPResponse.Status)
        async throws -> Response
    {
        var model = try await StaffModel.load(staff, message)
        model.twoFactorPolicy = twoFactorPolicy
        return HTMLPage(StaffView(model: model, viewer: context.viewer), status: status).response()
    }

    /// The add form refused on its way (a control character, an out-of-date token) or kept
    /// over a new sign-in: the staff page with what was typed.
    var showCreateAgain: FormRules.ShowAgain {
        { [self] form, refusal, context in
            try await page(
                context,
                message: .init(
                    error: refusal.sentence, typedEmail: form["email"] ?? "",
                    typedRole: form["role"].flatMap(Role.init(rawValue:))), status: refusal.status)
        }
    }

    private func decode(_ request: Request, _ context: StaffRequestContext) async throws -> AccountForm {
        let form = try await request.formFields()
        return AccountForm(email: form["email"], role: form["role"])
    }

    private func sentence(_ error: AdminStoreError) -> String {
        let text = error.description
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}
