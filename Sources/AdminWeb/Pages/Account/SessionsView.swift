import AdminDomain
import HTMLRender

struct SessionsView: HTMLComponent {
    let model: SessionsModel
    let viewer: Viewer

    var content: HTMLNode {
        AccountPage(.sessions, viewer: viewer) {
            p(.class("muted")) { "Where \(viewer.identity.email) is signed in now. Times are UTC." }
            if let error = model.error { p(.class("notice error"), .role("alert")) { error } }
            if let ended = model.ended {
                p(.class("notice"), .role("status")) {
                    ended == 1 ? "Signed out 1 other session." : "Signed out \(ended) other sessions."
                }
            }
            section(.class("panel")) {
                DataTable(
                    caption: "\(model.sessions.count) active session\(model.sessions.count == 1 ? "" : "s")",
                    columns: [
                        .init("Signed in"), .init("Last active"), .init("From"),
                        .init("Browser"), .init(""),
                    ],
                    rows: model.sessions.map { session in
                        [
                            session.createdAt.text, session.lastSeenAt.text, session.clientAddress ?? "unknown",
                            String((session.userAgent ?? "unknown").prefix(120)),
                            session.isCurrent ? "this session" : "",
                        ]
                    })
                if model.sessions.contains(where: { !$0.isCurrent }) {
                    form(.method(.post), .action(SiteURL.endOtherSessions.href), .class("filters")) {
                        CSRFField(token: viewer.csrfToken)
                        YourPasswordField()
                        button(.type("submit"), .class("primary")) { "Sign out everywhere else" }
                    }
                }
            }
        }.content
    }
}
