import AdminDomain
import HTMLRender

struct AuditLogModel {
    static let pageSize = 50

    let filter: AuditFilter
    let rows: [AuditRow]
    /// The id the page starts below, when it is not the newest page.
    let before: Int64?
    let hasOlder: Bool
    let problem: String?

    static func load(services: PanelServices, filter: AuditFilter, before: Int64?) async throws -> AuditLogModel {
        switch filter.query {
        case let .failure(problem):
            return AuditLogModel(filter: filter, rows: [], before: before, hasOlder: false, problem: problem.message)
        case let .success(query):
            let rows = try await services.signIn.audit.page(query, before: before, limit: pageSize + 1)
            return AuditLogModel(filter: filter, rows: Array(rows.prefix(pageSize)), before: before,
                                 hasOlder: rows.count > pageSize, problem: nil)
        }
    }
}

struct AuditLogView: HTMLComponent {
    let model: AuditLogModel
    let viewer: Viewer

    var content: HTMLNode {
        let filter = model.filter
        return PageLayout(pageTitle: "Audit log", viewer: viewer, activeSection: .auditLog) {
            h1 { "Audit log" }
            p(.class("muted")) { "Every sign-in, change and look at personal data, newest first. Times are UTC." }
            form(.method(.get), .action(SiteURL.auditLog().href), .class("filters")) {
                label { "Who (email)"; input(.type("text"), .name("actor"), .value(filter.actor), .maxlength(320)) }
                SelectField(label: "Action", name: "action", options: AuditAction.allCases.map { ($0.rawValue, $0.rawValue) },
                            selected: filter.action)
                label { "Target"; input(.type("text"), .name("target"), .value(filter.target), .maxlength(320)) }
                label { "From"; input(.type("date"), .name("from"), .value(filter.from)) }
                label { "To"; input(.type("date"), .name("to"), .value(filter.to)) }
                button(.type("submit"), .class("primary")) { "Filter" }
                a(.href(SiteURL.auditCSV(filter).href), .class("download")) { "Download CSV" }
            }
            if let problem = model.problem {
                p(.class("notice error"), .role("alert")) { problem }
            }
            section(.class("panel")) {
                DataTable(
                    caption: model.rows.isEmpty ? "No entries match."
                        : "\(model.rows.count) \(model.rows.count == 1 ? "entry" : "entries") on this page",
                    columns: [.init(heading: "When"), .init(heading: "Who"), .init(heading: "From"), .init(heading: "Action"),
                              .init(heading: "Target"), .init(heading: "Detail")],
                    rows: model.rows.map { row in
                        [row.at, row.actorEmail ?? "", row.clientAddress ?? "", row.action, row.target ?? "", row.detail ?? ""]
                    })
                nav(.class("pager"), .ariaLabel("Pages")) {
                    if model.before != nil {
                        a(.href(SiteURL.auditLog(filter).href)) { "Newest" }
                    }
                    if model.hasOlder, let last = model.rows.last {
                        a(.href(SiteURL.auditLog(filter, before: last.id).href)) { "Older entries" }
                    }
                }
            }
        }.content
    }
}
