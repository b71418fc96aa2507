import AdminDomain

/// A staff account's state as the staff page shows it: disabled, waiting for its owner to
/// replace a one-time password, or active.
enum StaffAccountState: String, CaseIterable, Sendable {
    case active, disabled
    case oneTimePassword = "one-time-password"

    init(_ admin: Admin) {
        self = admin.disabledAt != nil ? .disabled : admin.passwordExpiresAt != nil ? .oneTimePassword : .active
    }
}

/// Whether a staff account has a second factor set up; pending: its role needs one and it
/// has none yet (its owner sets it up at their next sign-in, before anything else opens).
enum TwoFactorState: String, CaseIterable, Sendable {
    case on, off, pending

    init(_ account: StaffAccount, policy: TwoFactorPolicy) {
        self = account.hasTwoFactor ? .on : policy.isRequired(for: account.admin.role) ? .pending : .off
    }
}
