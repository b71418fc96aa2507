import Hummingbird

/// The session cookie: HttpOnly, SameSite=Strict, whole site. When `Secure`, it is named
/// with the `__Host-` prefix, which browsers accept only from this host over TLS, with
/// Path=/ and no Domain, so a sibling subdomain cannot plant or overwrite it.
struct SessionCookie: Sendable {
    let secure: Bool

    var name: String { secure ? "__Host-panel_session" : "panel_session" }

    func token(in request: Request) -> String? {
        request.cookies[name]?.value
    }

    func make(token: String) -> Cookie {
        Cookie(name: name, value: token, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    var expired: Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }
}
