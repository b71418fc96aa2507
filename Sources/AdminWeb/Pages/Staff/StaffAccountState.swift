import AdminDomain

/// A staff account's state as the staff page shows it: disabled, waiting for its owner to
/// replace a one-time password, or active.
enum StaffAccountState: String, CaseIterable, Sendable {
    case active, disabled, oneTimePassword = "one-time-password"

    init(_ admin: Admin) {
        self = admin.disabledAt != nil ? .disabled : admin.passwordExpiresAt != nil ? .oneTimePassword : .active
    }
}

/// Whether a staff account has a second factor set up.
enum TwoFactorState: String, CaseIterable, Sendable {
    case on, off

    init(_ account: StaffAccount) {
        self = account.hasTwoFactor ? .on : .off
    }
}
