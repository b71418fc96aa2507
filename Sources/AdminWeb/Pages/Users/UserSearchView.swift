import AdminDomain
import HTMLRender

/// Find a user by email (exact or prefix, any case), id or display name: chosen, or
/// recognised from what is typed. The results say which was searched.
struct UserSearchView: HTMLComponent {
    let model: UserSearchModel
    let viewer: Viewer

    var content: HTMLNode {
        let fields = model.form
        return PageLayout(pageTitle: "Users", viewer: viewer, activeSection: .users) {
            h1 { "Find a user" }
            form(.method(.get), .action(SiteURL.users().href), .class("filters"), .role("search")) {
                SelectField(
                    label: "By", name: "by",
                    options: [
                        (UserSearchForm.anything, "id, email or name"), ("email", "email (exact or start)"),
                        ("id", "user id"), ("name", "display name"),
                    ],
                    selected: fields["by"].isEmpty ? UserSearchForm.anything : fields["by"], anyLabel: nil)
                label {
                    "Search"
                    input(
                        .type("search"), .id("user-query"), .name("q"), .value(fields["q"]), .maxlength(320),
                        .autocomplete("off"), .autofocus, Attribute("list", "user-suggestions"),
                        Attribute("data-suggest", SiteURL.userSuggestions.path))
                }
                element("datalist", [.id("user-suggestions")]) {}
                button(.type("submit"), .class("primary")) { "Search" }
            }
            for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
            if let result = model.result {
                section(.class("panel")) {
                    p(.class("muted"), .role("status")) {
                        // The sentence quotes what was typed: shown as user text is.
                        UserText(text: Self.searched(result), clampAfter: .max)
                        // A word read as the start of an email may have been meant as a name.
                        if fields["by"].isEmpty || fields["by"] == UserSearchForm.anything, result.searched == .email,
                            !result.text.contains("@")
                        {
                            " · "
                            a(.href(SiteURL.users(UserSearchForm(fields: ["by": "name", "q": result.text])).href)) {
                                "Search names instead"
                            }
                        }
                    }
                    if let lowered = result.lowerCaseRetry {
                        p(.class("notice")) {
                            UserText(
                                text:
                                    "Nothing starts with “\(result.text)” as typed: the app's email index ignores the "
                                    + "case of A–Z only, "
                                    + "so this also looked up its lower-case form “\(lowered)”.", clampAfter: .max)
                        }
                    }
                    if result.users.isEmpty {
                        p { result.lowerCaseRetry == nil ? "No user matches." : "No user matches either form." }
                    } else {
                        UserTable(users: result.users, caption: "\(result.users.count) shown", showItems: true)
                    }
                    if let scanned = result.scanned {
                        p(.class("muted")) {
                            "Display names have no index: this page looked through \(Format.grouped(scanned)) users, "
                                + "newest first"
                            result.stoppedOnBudget ? ", and stopped there. The results are partial." : "."
                        }
                    }
                    if result.previous != nil || result.next != nil {
                        // The field searched, not the box's guess again: a cursor belongs to one field.
                        let base = fields.with([
                            "by": result.searched.rawValue, "q": result.lowerCaseRetry ?? fields["q"],
                        ])
                        nav(.class("pager"), .ariaLabel("Pages")) {
                            if let previous = result.previous {
                                a(.href(SiteURL.users(base.with(["after": nil, "before": previous])).href)) {
                                    "Previous page"
                                }
                            }
                            if let next = result.next {
                                a(.href(SiteURL.users(base.with(["before": nil, "after": next])).href)) {
                                    // "Look further" only where the scan stopped on its budget: a full page is a page.
                                    result.stoppedOnBudget ? "Look further" : "Next page"
                                }
                            }
                        }
                    }
                }
            }
            script(.src(SiteURL.suggestScript.path), Attribute("defer", "")) {}
        }.content
    }

    /// Which search ran, for what.
    static func searched(_ result: UserSearchResult) -> String {
        switch result.searched {
        case .id: "Searched user ids for \(result.text)"
        case .email: "Searched emails starting with “\(result.text)”"
        case .name where result.namesAfterNoEmail:
            "No email starts with “\(result.text)”, so searched names containing “\(result.text)”"
        case .name: "Searched names containing “\(result.text)”"
        }
    }
}

/// Users with a link to each profile.
struct UserTable: HTMLComponent {
    let users: [UserSummary]
    let caption: String
    var showItems = false
    /// Headings the list can be sorted by, with their links.
    var sorts: [String: DataTable.Sort] = [:]
    /// Said instead of the table when no user is listed.
    var empty: String?

    var content: HTMLNode {
        var columns = ["Email", "Name", "Plan", "Status", "Signed up (UTC)", "Last active (UTC)"].map {
            DataTable.Column($0, sort: sorts[$0])
        }
        if showItems {
            columns.append(
                .init("Items", numeric: true, note: "From the item indexes: includes items deleted in the last 30 days")
            )
        }
        return DataTable(
            caption: caption, columns: columns,
            rows: users.map { user in
                var cells = [
                    TableCell { a(.href(SiteURL.user(id: user.id).href)) { UserText(text: user.email) } },
                    TableCell(user.displayName ?? ""), TableCell { StatusBadge(user.plan) },
                    TableCell { StatusBadge(user.status) },
                    TableCell(Format.stored(time: user.createdAt)),
                    TableCell(user.lastActiveAt.map(Format.stored(time:)) ?? "never"),
                ]
                if showItems {
                    cells.append(
                        TableCell(user.itemCount.map { Format.grouped($0) + (user.itemCountIsCapped ? "+" : "") } ?? "")
                    )
                }
                return TableRow(cells)
            }, empty: empty
        ).content
    }
}
