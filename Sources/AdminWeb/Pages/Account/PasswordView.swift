import AdminDomain
import HTMLRender

struct PasswordView: HTMLComponent {
    let model: PasswordModel
    let viewer: Viewer

    var content: HTMLNode {
        AccountPage(.password, viewer: viewer) {
            if let notice = model.notice {
                p(.class("notice"), .role("status")) {
                    notice
                    " "
                    a(.href(SiteURL.dashboard.href)) { "Continue" }
                }
            } else if viewer.identity.mustChangePassword {
                p(.class("notice"), .role("status")) {
                    "You signed in with a one-time password. Choose your own to open the rest of the panel."
                }
            }
            for error in model.errors { p(.class("notice error"), .role("alert")) { error } }
            section(.class("panel")) {
                p(.class("muted")) {
                    "At least \(PasswordPolicy.minimumLength) characters, any language; a long phrase is good. "
                    "Changing it signs you out everywhere else."
                }
                form(.method(.post), .action(SiteURL.password.href), .class("stacked")) {
                    CSRFField(token: viewer.csrfToken)
                    label(.for("current")) { "Current password" }
                    input(
                        .type("password"), .id("current"), .name("current"), .autocomplete("current-password"),
                        .required, .maxlength(1024))
                    label(.for("new")) { "New password" }
                    input(
                        .type("password"), .id("new"), .name("password"), .autocomplete("new-password"),
                        .required, .maxlength(1024))
                    label(.for("repeat")) { "New password again" }
                    input(
                        .type("password"), .id("repeat"), .name("repeat"), .autocomplete("new-password"),
                        .required, .maxlength(1024))
                    button(.type("submit"), .class("primary")) { "Change password" }
                }
            }
        }.content
    }
}
