import AdminDomain
import Hummingbird

/// A staff member whose role requires a second factor, and who has none yet, reaches only
/// the enrolment page and sign-out until they set one up.
struct RequireTwoFactorMiddleware: RouterMiddleware {
    typealias Context = StaffRequestContext
    let policy: TwoFactorPolicy

    /// What enrolling needs, and the password page, which a one-time password must reach
    /// first; everything else waits.
    static let openBeforeEnrolment: Set<String> = [
        SiteURL.twoFactor.path, SiteURL.beginTwoFactor.path, SiteURL.confirmTwoFactor.path, SiteURL.logout.path,
        SiteURL.password.path,
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard policy.isRequired(for: context.identity.role), !context.identity.hasTwoFactor,
            !Self.openBeforeEnrolment.contains(request.uri.path)
        else { return try await next(request, context) }
        return .redirect(to: SiteURL.twoFactor.href, type: .normal)
    }
}
