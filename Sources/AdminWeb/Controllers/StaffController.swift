import AdminDomain
import Hummingbird

/// Staff accounts for admins: create, change role, disable, enable, reset password.
struct StaffController {
    let services: PanelServices

    struct AccountForm: Decodable {
        var email: String?
        var role: String?
    }

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.staff(), requires: .manageStaff, use: list)
        routes.post(.createStaff, requires: .manageStaff, use: create)
        routes.post(.staffAction(id: nil, .role), requires: .manageStaff, use: changeRole)
        routes.post(.staffAction(id: nil, .disable), requires: .manageStaff, use: disable)
        routes.post(.staffAction(id: nil, .enable), requires: .manageStaff, use: enable)
        routes.post(.staffAction(id: nil, .resetPassword), requires: .manageStaff, use: resetPassword)
        routes.post(.staffAction(id: nil, .resetTwoFactor), requires: .manageStaff, use: resetTwoFactor)
        routes.post(.staffAction(id: nil, .endSessions), requires: .manageStaff, use: endSessions)
        routes.post(.endAllSessions, requires: .manageStaff, use: endAllSessions)
    }

    @Sendable func list(request: Request, context: StaffRequestContext) async throws -> Response {
        let notice = request.uri.queryParameters.get("notice").flatMap(StaffNotice.init(rawValue:))
        return try await page(context, notice: notice?.sentence)
    }

    @Sendable func create(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = await decode(request, context)
        guard let role = form.role.flatMap(Role.init(rawValue:)) else {
            return try await page(context, error: "Choose a role.", status: .badRequest)
        }
        let email = (form.email ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let password = await GeneratedPassword.make(for: email)
        let admin: Admin
        do {
            admin = try await services.admins.create(email: email, password: password, role: role, oneTime: true)
        } catch let error as AdminStoreError {
            return try await page(context, error: sentence(error), status: .badRequest)
        }
        try await audit(context, .adminCreated, admin.id, detail: "role=\(role.rawValue)")
        return try await page(context, notice: "Account created.", oneTimePassword: (admin.email, password))
    }

    @Sendable func changeRole(request: Request, context: StaffRequestContext) async throws -> Response {
        guard let role = await decode(request, context).role.flatMap(Role.init(rawValue:)) else {
            return try await page(context, error: "Choose a role.", status: .badRequest)
        }
        return try await act(context, .roleChanged, notice: .roleChanged, detail: "role=\(role.rawValue)") { id in
            try await services.admins.changeRole(id: id, to: role)
        }
    }

    @Sendable func disable(request: Request, context: StaffRequestContext) async throws -> Response {
        try await act(context, .adminDisabled, notice: .disabled) { id in try await services.admins.disable(id: id) }
    }

    @Sendable func enable(request: Request, context: StaffRequestContext) async throws -> Response {
        try await act(context, .adminEnabled, notice: .enabled) { id in try await services.admins.enable(id: id) }
    }

    @Sendable func resetPassword(request: Request, context: StaffRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self),
              let admin = try await services.admins.find(id: id)
        else { throw HTTPError(.notFound) }
        let password = await GeneratedPassword.make(for: admin.email)
        try await services.admins.resetPassword(id: id, to: password, oneTime: true)
        try await audit(context, .passwordReset, id)
        return try await page(context, notice: "Password reset. That person's sessions have ended.",
                              oneTimePassword: (admin.email, password))
    }

    @Sendable func resetTwoFactor(request: Request, context: StaffRequestContext) async throws -> Response {
        try await act(context, .twoFactorReset, notice: .twoFactorReset) { id in
            guard let admin = try await services.admins.find(id: id) else { throw AdminStoreError.notFound("#\(id)") }
            try await services.signIn.twoFactor.remove(adminID: id, endingSessions: true)
            return admin
        }
    }

    @Sendable func endSessions(request: Request, context: StaffRequestContext) async throws -> Response {
        let sessions = services.signIn.sessions
        return try await act(context, .sessionsEnded, notice: .sessionsEnded) { id in
            guard let admin = try await services.admins.find(id: id) else { throw AdminStoreError.notFound("#\(id)") }
            try await sessions.deleteAll(adminID: id, keepToken: context.sessionToken)
            return admin
        }
    }

    @Sendable func endAllSessions(request: Request, context: StaffRequestContext) async throws -> Response {
        let ended = try await services.signIn.sessions.deleteAll(adminID: nil, keepToken: context.sessionToken)
        try await services.audit(context, .sessionsEnded, target: "all", detail: "\(ended)")
        return .redirect(to: SiteURL.staff(notice: .allSessionsEnded).href, type: .normal)
    }

    /// Runs one change on the account named in the path, audits it and redirects with a notice,
    /// or shows why it was refused.
    private func act(_ context: StaffRequestContext, _ action: AuditAction, notice: StaffNotice, detail: String? = nil,
                     _ change: (Int64) async throws -> Admin) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.notFound) }
        do {
            _ = try await change(id)
        } catch let error as AdminStoreError {
            if case .notFound = error { throw HTTPError(.notFound) }
            return try await page(context, error: sentence(error), status: .conflict)
        }
        try await audit(context, action, id, detail: detail)
        return .redirect(to: SiteURL.staff(notice: notice).href, type: .normal)
    }

    private func page(_ context: StaffRequestContext, notice: String? = nil, error: String? = nil,
                      oneTimePassword: (email: String, password: String)? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        let model = StaffModel(admins: try await services.admins.list(),
                               twoFactor: try await services.signIn.twoFactor.enabledAdminIDs(), notice: notice, error: error,
                               oneTimePassword: oneTimePassword)
        return HTMLPage(StaffView(model: model, viewer: context.viewer), status: status).response()
    }

    private func decode(_ request: Request, _ context: StaffRequestContext) async -> AccountForm {
        (try? await request.decode(as: AccountForm.self, context: context)) ?? AccountForm()
    }

    private func audit(_ context: StaffRequestContext, _ action: AuditAction, _ id: Int64?, detail: String? = nil) async throws {
        try await services.audit(context, action, target: id.map { "admin:\($0)" }, detail: detail)
    }

    private func sentence(_ error: AdminStoreError) -> String {
        let text = error.description
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}
