import AdminDomain
import HTMLRender

/// Find a user by email (exact or prefix, any case), id or display name.
struct UserSearchView: HTMLComponent {
    let model: UserSearchModel
    let viewer: Viewer

    var content: HTMLNode {
        let fields = model.form
        return PageLayout(pageTitle: "Users", viewer: viewer, activeSection: .users) {
            h1 { "Find a user" }
            form(.method(.get), .action(SiteURL.users().href), .class("filters"), .role("search")) {
                SelectField(label: "By", name: "by",
                            options: [("email", "email (exact or start)"), ("id", "user id"), ("name", "display name")],
                            selected: fields["by"].isEmpty ? "email" : fields["by"], anyLabel: nil)
                label {
                    "Search"
                    input(.type("search"), .id("user-query"), .name("q"), .value(fields["q"]), .maxlength(320),
                          .autocomplete("off"), .autofocus, Attribute("list", "user-suggestions"),
                          Attribute("data-suggest", SiteURL.userSuggestions.path))
                }
                element("datalist", [.id("user-suggestions")]) {}
                button(.type("submit"), .class("primary")) { "Search" }
            }
            for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
            if let result = model.result {
                section(.class("panel")) {
                    if result.users.isEmpty {
                        p { "No user matches." }
                    } else {
                        UserTable(users: result.users, caption: "\(result.users.count) shown", showItems: true)
                    }
                    if let scanned = result.scanned {
                        p(.class("muted")) {
                            "Display names have no index: this page looked at \(Format.grouped(scanned)) users, newest first"
                            result.stoppedOnBudget ? ", and stopped there. The results are partial." : "."
                        }
                    }
                    if let next = result.next {
                        nav(.class("pager"), .ariaLabel("Pages")) {
                            a(.href(SiteURL.users(fields.with(["after": next])).href)) {
                                result.scanned == nil ? "Next page" : "Look further"
                            }
                        }
                    }
                }
            }
            script(.src(SiteURL.suggestScript.path), Attribute("defer", "")) {}
        }.content
    }
}

/// Users with a link to each profile.
struct UserTable: HTMLComponent {
    let users: [UserSummary]
    let caption: String
    var showItems = false

    var content: HTMLNode {
        var columns = ["Email", "Name", "Plan", "Status", "Signed up (UTC)", "Last active (UTC)"].map { DataTable.Column($0) }
        if showItems {
            columns.append(.init("Items", numeric: true, note: "From the item indexes: includes items deleted in the last 30 days"))
        }
        return DataTable(caption: caption, columns: columns, rows: users.map { user in
            var cells = [
                TableCell { a(.href(SiteURL.user(id: user.id).href)) { user.email } },
                TableCell(user.displayName ?? ""), TableCell(user.plan.description), TableCell(user.status.description),
                TableCell(user.createdAt), TableCell(user.lastActiveAt ?? "never"),
            ]
            if showItems {
                cells.append(TableCell(user.itemCount.map { Format.grouped($0) + (user.itemCountIsCapped ? "+" : "") } ?? ""))
            }
            return TableRow(cells)
        }).content
    }
}
