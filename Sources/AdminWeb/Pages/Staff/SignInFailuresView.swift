import AdminDomain
import HTMLRender

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
                DataTable(
                    caption: "\(model.entries.count) counted",
                    columns: [
                        .init("Who"), .init("Failures", numeric: true), .init("Last failure"), .init("Locked until"),
                        .init(""),
                    ],
                    rows: model.entries.map { entry in
                        TableRow([
                            TableCell(entry.who), TableCell(String(entry.failures)),
                            TableCell(entry.lastFailureAt.text),
                            TableCell {
                                StatusBadge(SignInLockState(lockedUntil: entry.lockedUntil?.text))
                                if let until = entry.lockedUntil { " until \(until)" }
                            },
                            TableCell {
                                form(.method(.post), .action(SiteURL.clearSignInFailure.href), .class("inline")) {
                                    CSRFField(token: viewer.csrfToken)
                                    input(.type("hidden"), .name("kind"), .value(entry.kind.rawValue))
                                    input(.type("hidden"), .name("email"), .value(entry.email))
                                    input(.type("hidden"), .name("address"), .value(entry.address))
                                    button(.type("submit")) { entry.lockedUntil == nil ? "Clear" : "Unlock" }
                                }
                            },
                        ])
                    }, empty: "Nothing is slowed or locked.")
            }
            section(.class("panel")) {
                h2 { "Latest failures" }
                DataTable(
                    caption: "The newest \(model.recent.count)",
                    columns: [
                        .init("When"), .init("What"), .init("Email typed"),
                        .init("From"), .init("Account"),
                    ],
                    rows: model.recent.map {
                        TableRow(
                            [$0.at.text, $0.action, $0.actorEmail ?? "", $0.clientAddress ?? "", $0.target ?? ""].map {
                                TableCell($0)
                            })
                    },
                    empty: "No failed sign-in is recorded.")
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

}
