/// The panel's four cookies, named and flagged from the configuration once.
struct PanelCookies: Sendable {
    let session: PanelCookie
    let secondFactor: PanelCookie
    let loginForm: PanelCookie
    let keptForm: PanelCookie

    init(secure: Bool) {
        session = .session(secure: secure)
        secondFactor = .secondFactor(secure: secure)
        loginForm = .loginForm(secure: secure)
        keptForm = .keptForm(secure: secure)
    }
}
