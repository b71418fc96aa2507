import AdminDomain
import Foundation
import HTMLRender

/// Users by how recently they used the app, with filters, a size, pages and a CSV.
struct ActivityListView: HTMLComponent {
    let model: ActivityListModel
    let viewer: Viewer

    var content: HTMLNode {
        let fields = model.form.firstPage
        let bucket = model.query.filter.bucket
        return PageLayout(pageTitle: "Activity", viewer: viewer, activeSection: .activity) {
            h1 { "Users by activity" }
            nav(.class("tabs"), .ariaLabel("Activity")) {
                for choice in ActivityBucket.allCases {
                    let url = SiteURL.activity(fields.with(["bucket": choice.rawValue])).href
                    if choice == bucket {
                        a(.href(url), .ariaCurrent("page")) { choice.label }
                    } else {
                        a(.href(url)) { choice.label }
                    }
                }
            }
            form(.method(.get), .action(SiteURL.activity().href), .class("filters")) {
                input(.type("hidden"), .name("bucket"), .value(bucket.rawValue))
                // The heading's direction stays when the filters change.
                if !fields["dir"].isEmpty { input(.type("hidden"), .name("dir"), .value(fields["dir"])) }
                SelectField(
                    label: "Plan", name: "plan", options: Plan.allCases.map { ($0.rawValue, $0.rawValue) },
                    selected: fields["plan"])
                SelectField(
                    label: "Status", name: "status", options: AccountStatus.allCases.map { ($0.rawValue, $0.rawValue) },
                    selected: fields["status"])
                SelectField(
                    label: "Has a device", name: "platform",
                    options: Platform.allCases.map { ($0.rawValue, $0.rawValue) },
                    selected: fields["platform"])
                DateRangeFields.fields(from: fields["from"], "Signed up from", to: fields["to"], "to")
                SelectField(
                    label: "Sort by", name: "sort",
                    options: [("last_active", "last active"), ("sign_up", "sign-up date")],
                    selected: fields["sort"].isEmpty ? "last_active" : fields["sort"], anyLabel: nil)
                button(.type("submit"), .class("primary")) { "Show" }
                a(.href(SiteURL.activityCSV(fields).href), .class("download")) { "Download CSV" }
            }
            if model.outsideEveryList > 0 {
                p(.class("muted")) {
                    Format.count(model.outsideEveryList, "user has", "users have")
                        + " a last activity more than a day ahead of now, or one that is no time: none of these lists "
                        + "holds them (search finds them)."
                }
            }
            for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
            if let size = model.size, let page = model.page {
                section(.class("panel")) {
                    p(.class("list-size")) { Self.sentence(size, asOf: model.asOf) }
                    UserTable(
                        users: page.users, caption: Self.caption(page, query: model.query), sorts: Self.sorts(model),
                        empty: page.stoppedOnBudget ? nil : "No user is in this list.")
                    if page.stoppedOnBudget {
                        // Said before the link it explains: a short page with a Next link is never left unexplained.
                        p(.class("notice"), .role("status")) {
                            "The rest are further on: this page read \(Format.grouped(page.candidatesRead)) users of "
                            "this list without finding a full page of matches. The next page reads on from where this "
                            "one stopped."
                        }
                    }
                    // No range: keyset pages do not know how many users come before them; the
                    // list's size is said above.
                    Pager(
                        shown: page.users.count,
                        previous: page.previous.map {
                            SiteURL.activity(fields.with(["before": $0.key, "before_id": String($0.id)])).href
                        },
                        next: page.next.map {
                            SiteURL.activity(fields.with(["after": $0.key, "after_id": String($0.id)])).href
                        })
                }
            }
        }.content
    }

    /// The two orders the indexes serve, each both ways: last active (`users_last_active_at`)
    /// and sign-up (`users_created_at`). The never-active have no last activity: only
    /// sign-up (by id, their rows' order on the index) sorts them.
    static func sorts(_ model: ActivityListModel) -> [String: DataTable.Sort] {
        let query = model.query
        let current: SortOrder = query.ascending ? .ascending : .descending
        var sorts: [String: DataTable.Sort] = [:]
        for (heading, sort) in [("Signed up (UTC)", ActivitySort.signUp), ("Last active (UTC)", .lastActive)] {
            if sort == .lastActive, query.filter.bucket == .never { continue }
            let isCurrent = query.ordersBySignUp == (sort == .signUp)
            let order = isCurrent ? current.reversed : .descending
            sorts[heading] = DataTable.Sort(
                href: SiteURL.activity(model.form.sorted(by: sort == .lastActive ? nil : sort, order)).href,
                current: isCurrent ? current : nil)
        }
        return sorts
    }

    static func caption(_ page: ActivityPage, query: ActivityListQuery) -> String {
        let order =
            switch (query.ordersBySignUp, query.ascending) {
            case (true, false): "newest sign-ups first"
            case (true, true): "oldest sign-ups first"
            case (false, false): "most recently active first"
            case (false, true): "least recently active first"
            }
        if page.users.isEmpty, page.stoppedOnBudget {
            return "None among the \(Format.grouped(page.candidatesRead)) users this page read; the rest are further on"
        }
        return "\(page.users.count) on this page, \(order)"
    }

    /// Exact, or an estimate with its margin; a count made in the background says when, and
    /// one made for this page says it is as of now (`asOf`).
    static func sentence(_ size: ListSize, asOf: Date?) -> String {
        let said = sentence(size)
        guard size.countedAt == nil, let asOf else { return said }
        return said + ", as of \(SQLiteTime.string(asOf)) UTC"
    }

    static func sentence(_ size: ListSize) -> String {
        if size.isAtLeast {
            return "At least \(Format.grouped(size.value)) users: this page shows that many and more follow "
                + "(an estimate from a sample came out lower); the CSV holds them all"
        }
        if size.isEstimate {
            return "About \(Format.grouped(size.value)) users (± \(Format.grouped(size.margin ?? 0)), 95% confidence): "
                + "estimated from \(Format.grouped(ActivityLists.sampleSize)) of them sampled across this bucket; the "
                + "CSV holds them all"
        }
        let counted = size.countedAt.map { " (counted at \(SQLiteTime.string($0)) UTC, as on the dashboard)" } ?? ""
        return Format.count(size.value, "user", "users") + counted
    }
}
