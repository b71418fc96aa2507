import HTMLRender

/// The second step of signing in: a code from the authenticator app, or a recovery code.
struct SecondFactorView: HTMLComponent {
    let model: SecondFactorModel

    var content: HTMLNode {
        PageLayout(pageTitle: "Two-factor code", viewer: nil) {
            section(.class("login-card")) {
                h1 { "Enter your code" }
                p(.class("muted")) { "Open your authenticator app and type the six-digit code for Expiry Tracker Admin." }
                if let error = model.error {
                    p(.class("notice error"), .role("alert")) { error }
                }
                form(.method(.post), .action(SiteURL.secondFactor().href)) {
                    CSRFField(token: model.csrfToken)
                    if let next = model.next, SiteURL.isSafeRedirect(next) {
                        input(.type("hidden"), .name("next"), .value(next))
                    }
                    label(.for("code")) { "Code" }
                    input(.type("text"), .id("code"), .name("code"), .autocomplete("one-time-code"),
                          .required, .autofocus, .maxlength(64))
                    button(.type("submit"), .class("primary")) { "Sign in" }
                }
                p(.class("muted")) { "Lost your phone? Type one of your recovery codes instead; each works once." }
                p { a(.href(SiteURL.login().href)) { "Start again" } }
            }
        }.content
    }
}
