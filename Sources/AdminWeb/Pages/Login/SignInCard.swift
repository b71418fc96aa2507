import HTMLRender

/// The card both sign-in steps show: a heading, a line of help, the error if any, and a
/// form that carries the CSRF token and the page asked for (only when it is one of ours).
struct SignInCard: HTMLComponent {
    let pageTitle: String
    let heading: String
    let help: String
    let error: String?
    let action: SiteURL
    let csrfToken: String
    let next: String?
    let fields: [HTMLNode]
    var after: [HTMLNode] = []

    var content: HTMLNode {
        PageLayout(pageTitle: pageTitle, viewer: nil) {
            section(.class("login-card")) {
                h1 { heading }
                p(.class("muted")) { help }
                if let error { p(.class("notice error"), .role("alert")) { error } }
                form(.method(.post), .action(action.href)) {
                    CSRFField(token: csrfToken)
                    if let next, SiteURL.isSafeRedirect(next) {
                        input(.type("hidden"), .name("next"), .value(next))
                    }
                    fields
                    button(.type("submit"), .class("primary")) { "Sign in" }
                }
                after
            }
        }.content
    }
}
