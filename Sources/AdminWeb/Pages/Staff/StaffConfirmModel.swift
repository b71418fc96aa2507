import AdminDomain

/// An action on staff accounts that cannot be taken back by a click: it gets a page of its
/// own that names the person and the effect before anything happens.
enum DestructiveStaffAction: Sendable {
    case disable, resetPassword, resetTwoFactor, endSessions
    /// Every session but the admin's own.
    case endAllSessions

    init?(_ action: StaffAction) {
        switch action {
        case .disable: self = .disable
        case .resetPassword: self = .resetPassword
        case .resetTwoFactor: self = .resetTwoFactor
        case .endSessions: self = .endSessions
        case .role, .enable: return nil
        }
    }

    /// Where the confirmed form posts; a GET of the same address shows the confirmation.
    func url(accountID: Int64?) -> SiteURL {
        switch self {
        case .disable: .staffAction(id: accountID, .disable)
        case .resetPassword: .staffAction(id: accountID, .resetPassword)
        case .resetTwoFactor: .staffAction(id: accountID, .resetTwoFactor)
        case .endSessions: .staffAction(id: accountID, .endSessions)
        case .endAllSessions: .endAllSessions
        }
    }

    var button: String {
        switch self {
        case .disable: "Disable the account"
        case .resetPassword: "Reset the password"
        case .resetTwoFactor: "Reset two-factor sign-in"
        case .endSessions: "End their sessions"
        case .endAllSessions: "End every other session"
        }
    }

    func question(_ email: String?) -> String {
        let who = email.map { UserText.visible($0) } ?? "this account"
        return switch self {
        case .disable: "Disable \(who)?"
        case .resetPassword: "Reset the password of \(who)?"
        case .resetTwoFactor: "Reset two-factor sign-in for \(who)?"
        case .endSessions: "End every session of \(who)?"
        case .endAllSessions: "End every session but yours?"
        }
    }

    /// `twoFactorRequired`: whether the account's role must use a second factor, which says
    /// what happens after its reset.
    func effect(twoFactorRequired: Bool = true) -> String {
        switch self {
        case .disable:
            "They are signed out everywhere at once and cannot sign in until an admin enables the account again."
        case .resetPassword:
            "Their password stops working and their sessions end now. You get a one-time password to give them, shown "
                + "once; it works for 24 hours."
        case .resetTwoFactor:
            "For someone who lost their phone and recovery codes: their authenticator key and recovery codes stop "
                + "working and their sessions end. "
                + (twoFactorRequired
                    ? "They set it up again at their next sign-in."
                    : "Their role may sign in without a second factor, so they are not asked to set it up again; "
                        + "they can from their account page.")
        case .endSessions:
            "They are signed out on every device and sign in again (if it is your own account, this session stays)."
        case .endAllSessions:
            "Everyone else on the panel is signed out on every device and signs in again. Your own session stays."
        }
    }
}

struct StaffConfirmModel: PageModel {
    let action: DestructiveStaffAction
    /// nil for an action on everyone.
    let account: StaffAccount?
    var twoFactorPolicy = TwoFactorPolicy()

    /// What the action does to this account.
    var effect: String {
        action.effect(twoFactorRequired: account.map { twoFactorPolicy.isRequired(for: $0.admin.role) } ?? true)
    }

    static func load(_ staff: StaffAdministration, _ input: (action: DestructiveStaffAction, accountID: Int64?))
        async throws -> StaffConfirmModel
    {
        guard let id = input.accountID else { return StaffConfirmModel(action: input.action, account: nil) }
        guard let account = try await staff.accounts().first(where: { $0.admin.id == id }) else {
            throw PanelError.notFound("No staff account #\(id).")
        }
        return StaffConfirmModel(action: input.action, account: account)
    }
}
