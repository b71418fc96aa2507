import AdminDomain
import Foundation

/// What a form's result shows exactly once (recovery codes, a generated password), held in
/// memory for the session that made it until that session's next page, at most ten minutes.
/// So the form can answer with a redirect (post/redirect/get: a refresh never sends it again)
/// and the secret still reaches the person, once. Never written to disk: after a restart it
/// is gone, and the person asks again.
actor ShownOnce {
    enum Secret: Sendable, Equatable {
        case recoveryCodes([String])
        case oneTimePassword(email: String, password: String)
    }

    static let lifetime: TimeInterval = 600
    private var held: [String: (secret: Secret, until: Date)] = [:]

    func hold(_ secret: Secret, for sessionToken: String, now: Date = Date()) {
        held = held.filter { $0.value.until > now }
        held[SecureToken.sha256Hex(sessionToken)] = (secret, now.addingTimeInterval(Self.lifetime))
    }

    func take(for sessionToken: String, now: Date = Date()) -> Secret? {
        guard let entry = held.removeValue(forKey: SecureToken.sha256Hex(sessionToken)), entry.until > now else {
            return nil
        }
        return entry.secret
    }
}
