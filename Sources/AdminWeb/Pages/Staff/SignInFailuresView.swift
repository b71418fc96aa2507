import AdminDomain
import HTMLRender

/// What admins see of password guessing: the counts and locks in force, and the latest
/// failures from the audit log.
struct SignInFailuresModel {
    static let failureActions: [AuditAction] = [.signInFailed, .twoFactorFailed, .signInLocked]

    let entries: [ThrottleEntry]
    let recent: [AuditRow]
    var cleared = false

    static func load(services: PanelServices, cleared: Bool) async throws -> SignInFailuresModel {
        var recent: [AuditRow] = []
        for action in failureActions {
            recent += try await services.signIn.audit.page(AuditQuery(action: action), limit: 30)
        }
        return SignInFailuresModel(entries: try await services.signIn.throttle.current(),
                                   recent: Array(recent.sorted { $0.id > $1.id }.prefix(30)), cleared: cleared)
    }
}

struct SignInFailuresView: HTMLComponent {
    let model: SignInFailuresModel
    let viewer: Viewer

    var content: HTMLNode {
        PageLayout(pageTitle: "Failed sign-ins", viewer: viewer, activeSection: .admins) {
            h1 { "Failed sign-ins and locks" }
            p(.class("muted")) {
                "Counts reset 15 minutes after the last failure or when a lock runs out. Times are UTC."
            }
            if model.cleared { p(.class("notice"), .role("status")) { "Cleared." } }
            section(.class("panel")) {
                h2 { "In force now" }
                div(.class("table-wrap")) {
                    table(.class("data")) {
                        caption { model.entries.isEmpty ? "Nothing is slowed or locked." : "\(model.entries.count) counted" }
                        thead { tr { for heading in ["Who", "Failures", "Last failure", "Locked until", ""] { th(.scope("col")) { heading } } } }
                        tbody {
                            for entry in model.entries {
                                tr {
                                    td { Self.describe(entry.key) }
                                    td(.class("num")) { String(entry.failures) }
                                    td { entry.lastFailureAt }
                                    td { entry.lockedUntil ?? "not locked (slowed only)" }
                                    td {
                                        form(.method(.post), .action(SiteURL.clearSignInFailure.href), .class("inline")) {
                                            CSRFField(token: viewer.csrfToken)
                                            input(.type("hidden"), .name("key"), .value(entry.key))
                                            button(.type("submit")) { entry.lockedUntil == nil ? "Clear" : "Unlock" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            section(.class("panel")) {
                h2 { "Latest failures" }
                DataTable(
                    caption: model.recent.isEmpty ? "None recorded." : "The newest \(model.recent.count)",
                    columns: [.init(heading: "When"), .init(heading: "What"), .init(heading: "Email typed"),
                              .init(heading: "From"), .init(heading: "Account")],
                    rows: model.recent.map { [$0.at, $0.action, $0.actorEmail ?? "", $0.clientAddress ?? "", $0.target ?? ""] })
                p {
                    "In the audit log: "
                    for (index, action) in SignInFailuresModel.failureActions.enumerated() {
                        if index > 0 { ", " }
                        a(.href(SiteURL.auditLog(AuditFilter(action: action)).href)) { action.rawValue }
                    }
                }
            }
        }.content
    }

    /// A throttle key in words: which email, from which address.
    static func describe(_ key: String) -> String {
        let (kind, rest) = (key.prefix { $0 != ":" }, key.drop { $0 != ":" }.dropFirst())
        switch kind {
        case "pair":
            let email = rest.prefix { $0 != "|" }
            return "\(email) from \(rest.drop { $0 != "|" }.dropFirst())"
        case "address": return "any account from \(rest)"
        case "account": return "\(rest) from any address"
        default: return key
        }
    }
}
