import AdminDomain
import HTMLRender

/// "Are you sure?" for a destructive staff action, as a page: it works without JavaScript,
/// and the only button that acts is the danger-styled one.
struct StaffConfirmView: HTMLComponent {
    let model: StaffConfirmModel
    let viewer: Viewer

    var content: HTMLNode {
        let action = model.action
        return PageLayout(pageTitle: "Confirm", viewer: viewer, activeSection: .admins) {
            section(.class("panel confirm")) {
                h1 { action.question(model.account?.admin.email) }
                p { model.effect }
                if let admin = model.account?.admin {
                    p(.class("muted")) { "\(admin.role.rawValue) · created \(admin.createdAt)" }
                }
                form(.method(.post), .action(action.url(accountID: model.account?.admin.id).href), .class("actions")) {
                    CSRFField(token: viewer.csrfToken)
                    button(.type("submit"), .class("danger")) { action.button }
                    a(.href(SiteURL.staff().href)) { "Cancel" }
                }
            }
        }.content
    }
}
