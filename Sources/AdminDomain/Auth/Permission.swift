/// What a staff member may do. Each signed-in route names one; `Role.permissions` is the
/// whole matrix.
public enum Permission: String, CaseIterable, Sendable {
    /// The dashboard's aggregate numbers.
    case viewDashboard
    /// One's own account: sign out, own sessions.
    case useOwnAccount
    /// Find users and open an individual's profile and activity.
    case viewUserProfiles
    /// Activity lists and their CSV exports.
    case exportUserLists
    /// Compose, preview, send and watch campaigns; segment counts.
    case manageCampaigns
    /// Staff accounts and roles.
    case manageStaff
    /// Read and export the audit log.
    case readAuditLog
    /// Start a full count of the dashboard's figures now, and see why one failed.
    case refreshDashboard
    /// See and change the global control group's share, which every campaign and journey obeys.
    case setGlobalControl
}

extension Role {
    public var permissions: Set<Permission> {
        switch self {
        case .support: [.viewDashboard, .useOwnAccount, .viewUserProfiles, .exportUserLists]
        // Marketing sees segments and counts, never an individual's profile.
        case .marketing: [.viewDashboard, .useOwnAccount, .manageCampaigns]
        case .admin: Set(Permission.allCases)
        }
    }

    public func may(_ permission: Permission) -> Bool {
        permissions.contains(permission)
    }
}
