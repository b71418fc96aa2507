import AdminDomain
import Hummingbird

/// One's own account: the sessions list and "sign out everywhere else".
struct AccountController {
    let services: PanelServices

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.accountSessions(), requires: .useOwnAccount, use: sessions)
        routes.post(.endOtherSessions, requires: .useOwnAccount, use: endOthers)
    }

    @Sendable func sessions(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        // Only a small count is ever shown back; anything else in the query is ignored.
        let ended = request.uri.queryParameters.get("ended").flatMap(Int.init).flatMap { (0...10_000).contains($0) ? $0 : nil }
        let model = try await SessionsModel.load(services: services, context: context, ended: ended)
        return HTMLPage(SessionsView(model: model, viewer: context.viewer))
    }

    @Sendable func endOthers(request: Request, context: StaffRequestContext) async throws -> Response {
        let ended = try await services.signIn.sessions.deleteOthers(adminID: context.identity.adminID, keepToken: context.sessionToken)
        try await services.signIn.audit.append(AuditEntry(
            actor: context.identity, clientAddress: context.clientAddress, action: .otherSessionsEnded, detail: "\(ended)"))
        return .redirect(to: SiteURL.accountSessions(ended: ended).href, type: .normal)
    }
}
