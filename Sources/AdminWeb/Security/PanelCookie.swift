import AdminDomain
import Hummingbird

/// A cookie of the panel's: HttpOnly, SameSite=Strict, whole site. When `Secure`, it is
/// named with the `__Host-` prefix, which browsers accept only from this host over TLS,
/// with Path=/ and no Domain, so a sibling subdomain cannot plant or overwrite it.
struct PanelCookie: Sendable {
    let baseName: String
    let secure: Bool
    /// Seconds the browser keeps it; nil for a cookie that ends with the browser.
    var maxAge: Int?

    /// The session's cookie; the server decides when the session ends.
    static func session(secure: Bool) -> PanelCookie {
        PanelCookie(baseName: "panel_session", secure: secure)
    }

    /// Between a right password and a right code: the sign-in challenge's token.
    static func secondFactor(secure: Bool) -> PanelCookie {
        PanelCookie(baseName: "panel_code", secure: secure, maxAge: Int(LoginChallengeStore.lifetime))
    }

    /// Before sign-in there is no session: a random value in this cookie, echoed by the
    /// sign-in forms (a double-submit token), keeps other sites from signing a browser in.
    static func loginForm(secure: Bool) -> PanelCookie {
        PanelCookie(baseName: "panel_csrf", secure: secure)
    }

    /// A form sent after its session ended: the key of what was typed, kept for the next
    /// sign-in (`FormStash`).
    static func keptForm(secure: Bool) -> PanelCookie {
        PanelCookie(baseName: "panel_form", secure: secure, maxAge: Int(FormStash.lifetime))
    }

    var name: String { secure ? "__Host-\(baseName)" : baseName }

    func token(in request: Request) -> String? {
        request.cookies[name]?.value
    }

    func make(token: String) -> Cookie {
        Cookie(name: name, value: token, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    var expired: Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }
}
