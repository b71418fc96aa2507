import AdminDomain
import Hummingbird

/// Locked accounts and recent failures, for admins; a lock can be lifted early.
struct SignInFailuresController {
    let failures: SignInFailuresModel.Source

    struct ClearForm: Decodable {
        var key: String?
    }

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.signInFailures(), requires: .manageStaff, use: show)
        routes.post(.clearSignInFailure, requires: .manageStaff, use: clear)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let cleared = request.uri.queryParameters.get("cleared") == "1"
        return HTMLPage(SignInFailuresView(model: try await SignInFailuresModel.load(failures, cleared),
                                           viewer: context.viewer))
    }

    @Sendable func clear(request: Request, context: StaffRequestContext) async throws -> Response {
        let key = String(((try? await request.decode(as: ClearForm.self, context: context))?.key ?? "").prefix(700))
        guard !key.isEmpty, try await failures.throttle.clear(key: key, by: .staff(context.identity, from: context.clientAddress)) else {
            // Already gone (it ran out, or another admin cleared it): the list shows what is left.
            return .redirect(to: SiteURL.signInFailures().href, type: .normal)
        }
        return .redirect(to: SiteURL.signInFailures(cleared: true).href, type: .normal)
    }
}
