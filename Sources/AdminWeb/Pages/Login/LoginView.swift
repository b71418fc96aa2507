import HTMLRender

struct LoginView: HTMLComponent {
    let model: LoginModel

    var content: HTMLNode {
        PageLayout(pageTitle: "Sign in", viewer: nil) {
            section(.class("login-card")) {
                h1 { "Sign in" }
                p(.class("muted")) { "Staff access to the Expiry Tracker back office." }
                if let error = model.error {
                    p(.class("notice error"), .role("alert")) { error }
                }
                form(.method(.post), .action(SiteURL.login().href)) {
                    CSRFField(token: model.csrfToken)
                    if let next = model.next, SiteURL.isSafeRedirect(next) {
                        input(.type("hidden"), .name("next"), .value(next))
                    }
                    label(.for("email")) { "Email" }
                    input(.type("email"), .id("email"), .name("email"), .value(model.email), .autocomplete("username"),
                          .required, .autofocus, .maxlength(320))
                    label(.for("password")) { "Password" }
                    input(.type("password"), .id("password"), .name("password"), .autocomplete("current-password"),
                          .required, .maxlength(1024))
                    button(.type("submit"), .class("primary")) { "Sign in" }
                }
            }
        }.content
    }
}
