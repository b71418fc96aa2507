import AdminDomain
import HTMLRender

enum StaffAction: String, Sendable {
    case role, disable, enable
    case resetPassword = "reset-password"
    case resetTwoFactor = "reset-two-factor"
    case endSessions = "end-sessions"
}

/// Fixed sentences shown after an action; only their names travel in the URL.
enum StaffNotice: String, Sendable {
    case roleChanged = "role-changed"
    case disabled, enabled
    case twoFactorReset = "two-factor-reset"
    /// Of an account whose role may sign in without a second factor.
    case twoFactorResetOptional = "two-factor-reset-optional"
    case sessionsEnded = "sessions-ended"
    case allSessionsEnded = "all-sessions-ended"
    case created
    case passwordReset = "password-reset"

    var sentence: String {
        switch self {
        case .roleChanged:
            "Role changed. That person's sessions have ended; the new role applies from their next sign-in."
        case .disabled: "Account disabled. Its sessions have ended."
        case .enabled: "Account enabled."
        case .sessionsEnded: "That person's sessions have ended (yours, if it was you, except this one)."
        case .allSessionsEnded: "Every session but yours has ended: everyone else signs in again."
        case .twoFactorReset:
            "Two-factor sign-in reset. That person's sessions have ended; they set it up again at their next sign-in."
        case .twoFactorResetOptional:
            "Two-factor sign-in reset. That person's sessions have ended. Their role may sign in without it, so they "
                + "are not asked to set it up again; they can from their account page."
        case .created: "Account created."
        case .passwordReset: "Password reset. That person's sessions have ended."
        }
    }
}

struct StaffView: HTMLComponent {
    let model: StaffModel
    let viewer: Viewer

    /// The add form's fields' ids, which a refusal names to mark them.
    static let emailField = "new-email"
    static let roleField = "new-role"

    /// Email and Created sort the list, each both ways; a click on the current one turns it round.
    private func sort(for heading: String) -> DataTable.Sort? {
        let key: StaffModel.SortKey? = heading == "Email" ? .email : heading == "Created" ? .created : nil
        guard let key else { return nil }
        let current = model.sort == key ? model.order : nil
        return DataTable.Sort(
            href: SiteURL.staff(sort: key, order: current?.reversed ?? .ascending).href, current: current)
    }

    var content: HTMLNode {
        PageLayout(pageTitle: "Staff accounts", viewer: viewer, activeSection: .admins) {
            h1 { "Staff accounts" }
            div(.class("filters")) {
                a(.href(SiteURL.signInFailures().href)) { "Failed sign-ins and locks" }
                a(.href(SiteURL.endAllSessions.href), .class("button danger")) { "End every other session…" }
            }
            if let notice = model.message.notice { p(.class("notice"), .role("status")) { notice } }
            let problems = FormProblems(
                model.message.error.map { [$0] } ?? [],
                fields: model.message.error.flatMap { error in model.message.errorField.map { [error: $0] } } ?? [:])
            if let error = model.message.error {
                if model.message.errorField != nil {
                    problems.summary("The account was not created:")
                } else {
                    p(.class("notice error"), .role("alert")) { error }
                }
            }
            if let created = model.message.oneTimePassword {
                section(.class("panel one-time")) {
                    h2 {
                        "Password for "
                        UserText(text: created.email)
                    }
                    p { code { created.password } }
                    p(.class("muted")) {
                        "Shown once: give it to them over a channel you trust. Nobody can see it again. "
                        "It works for 24 hours, and they choose their own password when they first sign in with it."
                    }
                }
            }
            section(.class("panel")) {
                DataTable(
                    caption: model.accounts.count == 1 ? "1 account" : "\(model.accounts.count) accounts",
                    columns: ["Email", "Role", "State", "Two-factor", "Created", ""].map {
                        DataTable.Column($0, sort: sort(for: $0))
                    },
                    rows: model.accounts.map {
                        StaffRow(
                            account: $0, twoFactor: TwoFactorState($0, policy: model.twoFactorPolicy),
                            csrfToken: viewer.csrfToken
                        ).row
                    })
            }
            section(.class("panel")) {
                h2 { "Add a staff member" }
                form(.method(.post), .action(SiteURL.createStaff.href), .class("filters")) {
                    CSRFField(token: viewer.csrfToken)
                    label {
                        "Email"
                        if model.message.typedEmail.isEmpty {
                            input(.type("email"), .name("email"), .id(Self.emailField), .required, .maxlength(254))
                                .adding(problems.marks(Self.emailField))
                        } else {
                            input(
                                .type("email"), .name("email"), .id(Self.emailField), .value(model.message.typedEmail),
                                .required, .maxlength(254)
                            )
                            .adding(problems.marks(Self.emailField))
                        }
                    }
                    problems.message(Self.emailField)
                    label {
                        "Role"
                        RoleSelect(
                            selected: model.message.typedRole ?? .support, id: Self.roleField,
                            marks: problems.marks(Self.roleField))
                    }
                    problems.message(Self.roleField)
                    button(.type("submit"), .class("primary")) { "Create account" }
                }
            }
        }.content
    }
}

/// One account's cells: its facts and the actions an admin may take on it.
private struct StaffRow {
    let account: StaffAccount
    let twoFactor: TwoFactorState
    let csrfToken: String

    var row: TableRow {
        let admin = account.admin
        return TableRow(
            [
                TableCell(admin.email),
                TableCell {
                    action(.role) {
                        RoleSelect(selected: admin.role, label: "Role of \(admin.email)")
                        button(.type("submit")) { "Change" }
                    }
                },
                TableCell {
                    StatusBadge(StaffAccountState(admin))
                    if let since = admin.disabledAt { " since \(since)" }
                },
                TableCell { StatusBadge(twoFactor) },
                TableCell(admin.createdAt.text),
                // One menu a row rather than four red buttons: it opens without JavaScript (a
                // <details>), by keyboard, and each destructive action still asks on its own page.
                TableCell {
                    element("details", [.class("row-menu")]) {
                        element("summary", []) {
                            "Actions"
                            span(.class("visually-hidden")) {
                                " for "
                                UserText(text: admin.email)
                            }
                        }
                        ul(.class("row-menu-items")) {
                            if admin.disabledAt == nil {
                                li { confirming(.disable, "Disable…") }
                            } else {
                                li { action(.enable) { button(.type("submit")) { "Enable" } } }
                            }
                            li { confirming(.resetPassword, "Reset password…") }
                            li { confirming(.endSessions, "End sessions…") }
                            if account.hasTwoFactor { li { confirming(.resetTwoFactor, "Reset two-factor…") } }
                        }
                    }
                },
            ], id: admin.id.map(SiteURL.staffRowID))
    }

    /// A link to the page that asks before acting, named for the person.
    private func confirming(_ action: StaffAction, _ label: String) -> HTMLNode {
        a(
            .href(SiteURL.staffAction(id: account.admin.id, action).href), .class("danger"),
            .ariaLabel("\(label.dropLast()) \(account.admin.email)")
        ) { label }
    }

    /// A form that posts one action on this account.
    private func action(_ action: StaffAction, @HTMLBuilder _ fields: () -> [HTMLNode]) -> HTMLNode {
        form(.method(.post), .action(SiteURL.staffAction(id: account.admin.id, action).href), .class("inline")) {
            CSRFField(token: csrfToken)
            fields()
        }
    }
}

private struct RoleSelect: HTMLComponent {
    let selected: Role
    /// For a select without a visible label of its own (in a table row).
    var label: String?
    var id: String?
    /// `aria-invalid` and its description, when the add form's role was refused.
    var marks: [Attribute] = []

    var content: HTMLNode {
        element(
            "select", [.name("role")] + (label.map { [.ariaLabel($0)] } ?? []) + (id.map { [.id($0)] } ?? []) + marks
        ) {
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
