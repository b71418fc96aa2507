import AdminDomain

/// What admins see of password guessing: the counts and locks in force, and the latest
/// failures from the audit log.
struct SignInFailuresModel: PageModel {
    static let failureActions: [AuditAction] = [.signInFailed, .twoFactorFailed, .signInLocked]

    let entries: [ThrottleEntry]
    let recent: [AuditRow]
    var cleared = false

    /// `cleared`: right after an admin cleared a count, which the page confirms.
    static func load(_ services: PanelServices, _ cleared: Bool) async throws -> SignInFailuresModel {
        var recent: [AuditRow] = []
        for action in failureActions {
            recent += try await services.signIn.audit.page(AuditQuery(action: action), limit: 30)
        }
        return SignInFailuresModel(entries: try await services.signIn.throttle.current(),
                                   recent: Array(recent.sorted { $0.id > $1.id }.prefix(30)), cleared: cleared)
    }
}
