import AdminDomain
import HTMLRender

/// One user's activity log, newest first, by kind and days.
struct UserActivityView: HTMLComponent {
    let model: UserActivityModel
    let viewer: Viewer

    var content: HTMLNode {
        let id = model.user.id
        let fields = model.form.with(["before": nil, "before_id": nil])
        return PageLayout(pageTitle: "Activity of \(model.user.email)", viewer: viewer, activeSection: .users) {
            h1 { "Activity log" }
            p {
                a(.href(SiteURL.user(id: id).href)) { UserText(text: model.user.email) }
                " · user #\(id) · times are UTC"
            }
            form(.method(.get), .action(SiteURL.userActivity(id: id).href), .class("filters")) {
                SelectField(
                    label: "What", name: "kind", options: UserActivityLog.kinds.map { ($0, $0) },
                    selected: fields["kind"])
                DateRangeFields.fields(from: fields["from"], to: fields["to"])
                button(.type("submit"), .class("primary")) { "Filter" }
            }
            for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
            if let page = model.page {
                section(.class("panel")) {
                    ActivityTable(events: page.events, caption: "\(page.events.count) on this page, newest first")
                    nav(.class("pager"), .ariaLabel("Pages")) {
                        if model.form.hasCursor { a(.href(SiteURL.userActivity(id: id, fields).href)) { "Newest" } }
                        if let next = page.next, let at = next.key {
                            a(
                                .href(
                                    SiteURL.userActivity(
                                        id: id, fields.with(["before": at, "before_id": String(next.id)])
                                    ).href)
                            ) {
                                "Older"
                            }
                        }
                    }
                }
            }
        }.content
    }
}
