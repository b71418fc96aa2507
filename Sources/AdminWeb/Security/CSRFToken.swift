import AdminDomain

/// Tokens that a state-changing form must echo back.
enum CSRFToken {
    /// The form field every POST form carries.
    static let fieldName = "_csrf"

    /// For a signed-in request: derived from the session token, which only the browser's
    /// HttpOnly cookie holds. The page showing it does not reveal the session token.
    static func forSession(_ sessionToken: String) -> String {
        SecureToken.derived(from: sessionToken, purpose: "panel-csrf")
    }

    static func matches(_ given: String, _ expected: String) -> Bool {
        !expected.isEmpty && SecureToken.constantTimeEquals(Array(given.utf8), Array(expected.utf8))
    }
}
