import AdminDomain
import Hummingbird

/// Locked accounts and recent failures, for admins; a lock can be lifted early.
struct SignInFailuresController {
    let failures: SignInFailuresModel.Source

    /// The count's three parts, as the page's form names them: never one text to split.
    struct ClearForm {
        var kind, email, address: String?

        init(_ form: FormFields) {
            kind = form["kind"]
            email = form["email"]
            address = form["address"]
        }

        var key: ThrottleKey? {
            guard let kind = kind.flatMap(ThrottleKey.Kind.init(rawValue:)) else { return nil }
            return ThrottleKey(
                kind: kind, email: String((email ?? "").prefix(700)), address: String((address ?? "").prefix(100)))
        }
    }

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.signInFailures(), requires: .manageStaff, query: ["cleared"], use: show)
        routes.post(.clearSignInFailure, requires: .manageStaff, fields: ["kind", "email", "address"], use: clear)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let cleared = request.queryFields["cleared"] == "1"
        return HTMLPage(
            SignInFailuresView(
                model: try await SignInFailuresModel.load(failures, cleared),
                viewer: context.viewer))
    }

    @Sendable func clear(request: Request, context: StaffRequestContext) async throws -> Response {
        guard let key = ClearForm(try await request.formFields()).key,
            try await failures.throttle.clear(key: key, by: .staff(context.identity, from: context.clientAddress))
        else {
            // Already gone (it ran out, or another admin cleared it): the list shows what is left.
            return .redirect(to: SiteURL.signInFailures().href, type: .normal)
        }
        return .redirect(to: SiteURL.signInFailures(cleared: true).href, type: .normal)
    }
}
