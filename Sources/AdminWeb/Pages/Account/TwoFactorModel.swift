import AdminDomain
import QRCode

struct TwoFactorModel: PageModel {
    enum State {
        /// Not begun: a button starts enrolment (a POST, since it makes the key).
        case notStarted
        /// Not on yet: the key being enrolled, as text and as a QR code.
        case enrolling(secret: String, qrCode: QRCode?, uri: String)
        case enabled(since: String, recoveryCodesLeft: Int)
    }

    let state: State
    /// The viewer's role needs it: it cannot be turned off, and nothing else opens until it is on.
    let required: Bool
    var notice: String?
    var error: String?
    /// Right after enrolling or asking for new ones: shown on this response only.
    var recoveryCodes: [String]?

    static let issuer = "Expiry Tracker Admin"

    struct Source: Sendable {
        let twoFactor: TwoFactorStore
        let policy: TwoFactorPolicy
    }

    static func load(_ source: Source, _ identity: StaffIdentity) async throws -> TwoFactorModel {
        let required = source.policy.isRequired(for: identity.role)
        let status = try await source.twoFactor.status(adminID: identity.adminID)
        if let since = status.enabledAt {
            return TwoFactorModel(
                state: .enabled(since: since.text, recoveryCodesLeft: status.recoveryCodesLeft), required: required)
        }
        guard let secret = try await source.twoFactor.pendingSecret(adminID: identity.adminID) else {
            return TwoFactorModel(state: .notStarted, required: required)
        }
        let uri = TOTPCode.provisioningURI(secret: secret, account: identity.email, issuer: issuer)
        return TwoFactorModel(
            state: .enrolling(
                secret: TOTPCode.displayedSecret(secret), qrCode: try? QRCode.encode(Array(uri.utf8)),
                uri: uri),
            required: required)
    }
}
