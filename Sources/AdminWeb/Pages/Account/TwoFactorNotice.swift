/// Fixed sentences after a change to one's second factor; only their names travel in the URL.
enum TwoFactorNotice: String, Sendable {
    case enabled
    case newCodes = "new-codes"
    case disabled

    var sentence: String {
        switch self {
        case .enabled: "Two-factor sign-in is on. Your other sessions have ended."
        case .newCodes: "New recovery codes made; the old ones no longer work."
        case .disabled: "Two-factor sign-in is off. Your other sessions have ended."
        }
    }
}
