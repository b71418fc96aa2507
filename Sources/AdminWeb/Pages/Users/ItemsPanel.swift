import AdminDomain
import HTMLRender

/// A user's items, by kind and status, filtered and paged: on the profile its first page,
/// on the items page of its own whatever the links ask. Every link and the form lead to
/// the items page, so paging a heavy user's items never reads the rest of the profile.
struct ItemsPanel: HTMLComponent {
    let userID: Int64
    let calendar: UserCalendar
    let food: UserProfile.StatusCounts
    let documents: UserProfile.StatusCounts
    let itemsForm: ItemsForm
    let filter: UserItems.Filter
    /// nil when the items form was refused: `problems` says why.
    let items: UserItems.Page?
    let problems: [String]

    var content: HTMLNode {
        let id = userID
        let counts = filter.kind == .food ? food : documents
        let fields = itemsForm.firstPage
        return section(.class("panel"), .id(ProfileSection.items.rawValue)) {
            h2 { "Items" }
            nav(.class("tabs"), .ariaLabel("Kind")) {
                for (kind, label, total) in [
                    (ItemKind.food, "Food", food.total),
                    (.document, "Documents", documents.total),
                ] {
                    let url = SiteURL.userItems(id: id, ItemsForm(fields: ["kind": kind.rawValue])).href
                    if kind == filter.kind {
                        a(.href(url), .ariaCurrent("page")) { "\(label) (\(Format.grouped(total)))" }
                    } else {
                        a(.href(url)) { "\(label) (\(Format.grouped(total)))" }
                    }
                }
            }
            p(.class("status-counts")) {
                for (index, state) in UserItems.State.allCases.filter({ filter.kind == .food || $0 != .consumed })
                    .enumerated()
                {
                    if index > 0 { " · " }
                    let link =
                        SiteURL.userItems(
                            id: id, ItemsForm(fields: ["kind": filter.kind.rawValue, "state": state.rawValue])
                        ).href + "#items"
                    if filter.state == state {
                        a(.href(link), .ariaCurrent("true")) {
                            "\(state.label) \(Format.grouped(counts.count(of: state)))"
                        }
                    } else {
                        a(.href(link)) { "\(state.label) \(Format.grouped(counts.count(of: state)))" }
                    }
                }
                " (today is \(calendar.todayString) for them; soon means within \(UserCalendar.soonDays) "
                "days). Listed: \(filter.state?.label.lowercased() ?? "in use"), nearest to today first."
            }
            form(.method(.get), .action(SiteURL.userItems(id: id).href), .class("filters")) {
                input(.type("hidden"), .name("kind"), .value(filter.kind.rawValue))
                SelectField(
                    label: "Status", name: "state",
                    options: UserItems.State.allCases.filter { filter.kind == .food || $0 != .consumed }
                        .map { ($0.rawValue, $0.label) },
                    selected: fields["state"])
                SelectField(
                    label: filter.kind == .food ? "Category" : "Type", name: "category",
                    options: filter.kind == .food
                        ? UserItems.foodCategories.map { ($0, $0) }
                        : UserItems.documentTypes.map { ($0, DocumentType.label(of: $0)) },
                    selected: fields["category"])
                if filter.kind == .food {
                    SelectField(
                        label: "Storage", name: "storage", options: UserItems.storages.map { ($0, $0) },
                        selected: fields["storage"])
                }
                // Among this user's items only; what is typed is shown back escaped.
                HTMLRender.label {
                    filter.kind == .food ? "Name contains" : "Title contains"
                    input(.type("search"), .name("name"), .value(fields["name"]), .maxlength(ItemsForm.nameLimit))
                }
                button(.type("submit"), .class("primary")) { "Filter" }
            }
            for problem in problems { p(.class("notice error"), .role("alert")) { problem } }
            if let items {
                ItemTable(items: items.items, kind: filter.kind, empty: Self.emptySentence(filter))
                Pager(
                    offset: items.offset, shown: items.items.count, total: .exact(items.total),
                    previous: items.previous.map { SiteURL.userItems(id: id, fields.before($0)).href + "#items" },
                    next: items.next.map { SiteURL.userItems(id: id, fields.after($0)).href + "#items" },
                    noun: filter.kind == .food ? "food items" : "documents")
                // A page past the end (items gone since the link was made): back to the top.
                if items.items.isEmpty, itemsForm.hasCursor {
                    p { a(.href(SiteURL.userItems(id: id, fields).href + "#items")) { "First page" } }
                }
            }
        }
    }
}

extension ItemsPanel {
    /// What an empty list says, with the search text when there is one (escaped as all text).
    static func emptySentence(_ filter: UserItems.Filter) -> String {
        let what = filter.kind == .food ? "food item" : "document"
        if let name = filter.name, !name.isEmpty {
            // As typed, with direction overrides and controls made visible: they would turn the sentence.
            return "No \(what) of this user matches “\(UserText.visible(name))” with these filters."
        }
        return filter.state == nil && filter.category == nil && filter.storage == nil
            ? "This user has no \(what) in use." : "No \(what) of this user matches these filters."
    }
}

struct ItemTable: HTMLComponent {
    let items: [UserItems.Item]
    let kind: ItemKind
    let empty: String

    var content: HTMLNode {
        let food = kind == .food
        // What support asks about first: on a phone, the rest stacks below.
        let headings =
            food
            ? ["Name", "Expires", "Status", "Days left", "Category", "Storage", "Quantity", "Added", "Consumed"]
            : ["Title", "Expires", "Status", "Days left", "Type", "Number", "Added"]
        var columns = headings.map { DataTable.Column($0) }
        columns[headings.firstIndex(of: "Days left")!] = .init("Days left", numeric: true)
        return DataTable(
            caption: "\(items.count) on this page, nearest to today first",
            columns: columns,
            rows: items.map { item in
                // A date the calendar cannot read is counted among the safe ones, and says so.
                let state =
                    item.daysRemaining == nil && item.state == .safe
                    ? StatusBadge(item.state.badgeTone, "Safe (unreadable date)") : StatusBadge(item.state)
                var cells = [
                    TableCell(item.name), TableCell(Format.stored(time: item.expiryDate)),
                    TableCell(class: "state") { state },
                    TableCell(item.daysRemaining.map { String($0) } ?? "?", class: "state"),
                    TableCell(food ? item.category : DocumentType.label(of: item.category)),
                ]
                cells +=
                    food
                    ? [TableCell(item.storage ?? ""), TableCell(item.quantity ?? "")]
                    : [TableCell(item.maskedNumber ?? "")]
                cells.append(TableCell(Format.stored(time: item.createdAt)))
                if food { cells.append(TableCell(item.consumedAt.map(Format.stored(time:)) ?? "")) }
                return TableRow(cells, class: "state-\(item.state.rawValue)")
            }, empty: empty
        ).content
    }
}
