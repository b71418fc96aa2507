import AdminDomain
import HTMLRender

enum StaffAction: String, Sendable {
    case role, disable, enable, resetPassword = "reset-password", resetTwoFactor = "reset-two-factor", endSessions = "end-sessions"
}

/// Fixed sentences shown after an action; only their names travel in the URL.
enum StaffNotice: String, Sendable {
    case roleChanged = "role-changed", disabled, enabled, twoFactorReset = "two-factor-reset"
    case sessionsEnded = "sessions-ended", allSessionsEnded = "all-sessions-ended"

    var sentence: String {
        switch self {
        case .roleChanged: "Role changed. That person's sessions have ended; the new role applies from their next sign-in."
        case .disabled: "Account disabled. Its sessions have ended."
        case .enabled: "Account enabled."
        case .sessionsEnded: "That person's sessions have ended (yours, if it was you, except this one)."
        case .allSessionsEnded: "Every session but yours has ended: everyone else signs in again."
        case .twoFactorReset: "Two-factor sign-in reset. That person's sessions have ended; they set it up again at their next sign-in."
        }
    }
}

struct StaffModel {
    let accounts: [StaffAccount]
    var notice: String?
    var error: String?
    /// After creating an account or resetting a password: shown once, on this response only.
    var oneTimePassword: (email: String, password: String)?
}

struct StaffView: HTMLComponent {
    let model: StaffModel
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Staff accounts", viewer: viewer, activeSection: .admins) {
            h1 { "Staff accounts" }
            div(.class("filters")) {
                a(.href(SiteURL.signInFailures().href)) { "Failed sign-ins and locks" }
                form(.method(.post), .action(SiteURL.endAllSessions.href), .class("inline")) {
                    CSRFField(token: viewer.csrfToken)
                    button(.type("submit"), .title("Everyone but you signs in again")) { "End every other session" }
                }
            }
            if let notice = model.notice { p(.class("notice"), .role("status")) { notice } }
            if let error = model.error { p(.class("notice error"), .role("alert")) { error } }
            if let created = model.oneTimePassword {
                section(.class("panel one-time")) {
                    h2 { "Password for \(created.email)" }
                    p { code { created.password } }
                    p(.class("muted")) {
                        "Shown once: give it to them over a channel you trust. Nobody can see it again. "
                        "It works for 24 hours, and they choose their own password when they first sign in with it."
                    }
                }
            }
            section(.class("panel")) {
                div(.class("table-wrap")) {
                    table(.class("data")) {
                        caption { model.accounts.count == 1 ? "1 account" : "\(model.accounts.count) accounts" }
                        thead { tr { for heading in ["Email", "Role", "State", "Two-factor", "Created", ""] { th(.scope("col")) { heading } } } }
                        tbody {
                            for account in model.accounts {
                                StaffRow(admin: account.admin, hasTwoFactor: account.hasTwoFactor, csrfToken: viewer.csrfToken)
                            }
                        }
                    }
                }
            }
            section(.class("panel")) {
                h2 { "Add a staff member" }
                form(.method(.post), .action(SiteURL.createStaff.href), .class("filters")) {
                    CSRFField(token: viewer.csrfToken)
                    label { "Email"; input(.type("email"), .name("email"), .required, .maxlength(254)) }
                    label { "Role"; RoleSelect(selected: .support) }
                    button(.type("submit"), .class("primary")) { "Create account" }
                }
            }
        }.content
    }
}

private struct StaffRow: HTMLComponent {
    let admin: Admin
    let hasTwoFactor: Bool
    let csrfToken: String

    var content: HTMLNode {
        let id = admin.id
        return tr {
            td { admin.email }
            td {
                form(.method(.post), .action(SiteURL.staffAction(id: id, .role).href), .class("inline")) {
                    CSRFField(token: csrfToken)
                    RoleSelect(selected: admin.role)
                    button(.type("submit")) { "Change" }
                }
            }
            td { admin.disabledAt.map { "disabled since \($0)" } ?? "active" }
            td { hasTwoFactor ? "on" : "off" }
            td { admin.createdAt }
            td {
                form(.method(.post), .action(SiteURL.staffAction(id: id, admin.disabledAt == nil ? .disable : .enable).href),
                     .class("inline")) {
                    CSRFField(token: csrfToken)
                    button(.type("submit")) { admin.disabledAt == nil ? "Disable" : "Enable" }
                }
                form(.method(.post), .action(SiteURL.staffAction(id: id, .resetPassword).href), .class("inline")) {
                    CSRFField(token: csrfToken)
                    button(.type("submit")) { "Reset password" }
                }
                form(.method(.post), .action(SiteURL.staffAction(id: id, .endSessions).href), .class("inline")) {
                    CSRFField(token: csrfToken)
                    button(.type("submit")) { "End sessions" }
                }
                if hasTwoFactor {
                    form(.method(.post), .action(SiteURL.staffAction(id: id, .resetTwoFactor).href), .class("inline")) {
                        CSRFField(token: csrfToken)
                        button(.type("submit"), .title("For someone who lost their phone and recovery codes")) { "Reset two-factor" }
                    }
                }
            }
        }
    }
}

private struct RoleSelect: HTMLComponent {
    let selected: Role

    var content: HTMLNode {
        select(.name("role")) {
            for role in Role.allCases {
                if role == selected {
                    option(.value(role.rawValue), .selected) { role.rawValue }
                } else {
                    option(.value(role.rawValue)) { role.rawValue }
                }
            }
        }
    }
}
