import AdminDomain

/// What admins see of password guessing: the counts and locks in force, and the latest
/// failures from the audit log.
struct SignInFailuresModel: PageModel {
    static let failureActions: [AuditAction] = [.signInFailed, .twoFactorFailed, .signInLocked]

    let entries: [ThrottleEntry]
    let recent: [AuditRow]
    var cleared = false

    /// `cleared`: right after an admin cleared a count, which the page confirms.
    struct Source: Sendable {
        let throttle: LoginThrottle
        let audit: AuditLog
    }

    static func load(_ source: Source, _ cleared: Bool) async throws -> SignInFailuresModel {
        var recent: [AuditRow] = []
        for action in failureActions {
            recent += try await source.audit.page(AuditQuery(action: action), limit: 30)
        }
        return SignInFailuresModel(
            entries: try await source.throttle.current(),
            recent: Array(recent.sorted(by: AuditRow.newerFirst).prefix(30)), cleared: cleared)
    }
}
