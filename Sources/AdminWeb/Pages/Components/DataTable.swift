import HTMLRender

/// One cell: text, or any content (a link, a form); text is escaped like all text.
struct TableCell {
    let nodes: [HTMLNode]
    /// Classes beside the column's own, such as `state` for the colour of an expiry status.
    var classes: [String] = []

    /// Text: isolated and clamped like all user text, since any cell may hold some.
    init(_ text: String, class extra: String? = nil) {
        nodes = [UserText(text: text).content]
        classes = (extra.map { [$0] } ?? []) + (Self.isTime(text) ? ["when"] : [])
    }

    /// "2026-11-23", "2026-11-23 10:04:31", with or without " UTC": kept on one line, since
    /// browsers may break a date after any of its hyphens.
    static func isTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes.count <= 23, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
            return false
        }
        return bytes.allSatisfy {
            (48...57).contains($0) || $0 == 45 || $0 == 58 || $0 == 32 || $0 == 84 || $0 == 85 || $0 == 67
        }
    }

    init(class extra: String? = nil, @HTMLBuilder _ content: () -> [HTMLNode]) {
        nodes = content()
        classes = extra.map { [$0] } ?? []
    }
}

/// A row of cells, in the columns' order; `class` marks the whole row (its state), `id`
/// lets a link elsewhere jump to it.
struct TableRow {
    let cells: [TableCell]
    var `class`: String?
    var id: String?

    init(_ cells: [TableCell], class rowClass: String? = nil, id: String? = nil) {
        self.cells = cells
        self.class = rowClass
        self.id = id
    }
}

/// The one table of the panel: a caption, column headings, and rows of cells. Numeric
/// columns align right in the heading and every cell. It scrolls sideways inside its own
/// wrapper, never the page.
struct DataTable: HTMLComponent {
    struct Column {
        let heading: String
        var numeric = false
        /// A note shown on hover over the heading.
        var note: String?
        /// A column the list can be sorted by: its link, and the way it runs now (nil: the
        /// list is sorted by another column).
        var sort: Sort?

        init(_ heading: String, numeric: Bool = false, note: String? = nil, sort: Sort? = nil) {
            self.heading = heading
            self.numeric = numeric
            self.note = note
            self.sort = sort
        }
    }

    /// A sortable heading: a link to the list sorted by this column, the other way round
    /// when it is already sorted by it.
    struct Sort {
        /// The list sorted by this column, the way a click should turn it.
        let href: String
        /// How the list is sorted by this column now, if it is.
        let current: SortOrder?
    }

    let caption: String
    let columns: [Column]
    let rows: [TableRow]
    /// Said instead of the table when there are no rows: no headings over nothing.
    var empty: String?

    init(caption: String, columns: [Column], rows: [TableRow], empty: String? = nil) {
        self.caption = caption
        self.columns = columns
        self.rows = rows
        self.empty = empty
    }

    /// Rows of plain text.
    init(caption: String, columns: [Column], rows: [[String]]) {
        self.init(caption: caption, columns: columns, rows: rows.map { TableRow($0.map { TableCell($0) }) })
    }

    /// Columns that are all text headings.
    init(caption: String, headings: [String], rows: [[String]]) {
        self.init(caption: caption, columns: headings.map { Column($0) }, rows: rows)
    }

    init(caption: String, headings: [String], rows: [TableRow], empty: String? = nil) {
        self.init(caption: caption, columns: headings.map { Column($0) }, rows: rows, empty: empty)
    }

    /// The wrapper scrolls sideways when a wide table needs it, so keyboards can reach it (a
    /// focusable region named by the caption). On phones, rows stack: each cell shows its
    /// column's heading (`data-label`).
    var content: HTMLNode {
        if rows.isEmpty, let empty { return p(.class("empty-list")) { empty } }
        let sortable = columns.filter { $0.sort != nil && !$0.heading.isEmpty }
        guard !sortable.isEmpty else { return wrappedTable }
        // On a phone the headings are hidden (each cell shows its own): the sort links
        // are shown above the rows there instead.
        return div(.class("sortable-table")) {
            p(.class("sort-links")) {
                "Sort by: "
                for (index, column) in sortable.enumerated() {
                    if index > 0 { " · " }
                    Self.sortLink(column.heading, column.sort!)
                }
            }
            wrappedTable
        }
    }

    private var wrappedTable: HTMLNode {
        div(.class("table-wrap"), Attribute("tabindex", "0"), .role("region"), .ariaLabel(caption)) {
            table(.class("data")) {
                HTMLRender.caption { caption }
                thead {
                    tr {
                        for column in columns {
                            // A column of buttons has no heading to show; screen readers still get one.
                            element(
                                "th",
                                [.scope("col")] + classAttribute(column.numeric ? ["num"] : [])
                                    + (column.note.map { [.title($0)] } ?? [])
                                    + (column.sort?.current.map { [Attribute("aria-sort", $0.ariaSort)] } ?? [])
                            ) {
                                if column.heading.isEmpty {
                                    span(.class("visually-hidden")) { "Actions" }
                                } else if let sort = column.sort {
                                    Self.sortLink(column.heading, sort)
                                } else {
                                    column.heading
                                }
                            }
                        }
                    }
                }
                tbody {
                    for row in rows {
                        element("tr", (row.id.map { [.id($0)] } ?? []) + (row.class.map { [.class($0)] } ?? [])) {
                            for (index, cell) in row.cells.enumerated() {
                                let column = index < columns.count ? columns[index] : nil
                                // One box for the content, so that a phone's two columns (the
                                // heading, then the content) hold whatever the cell has.
                                element(
                                    "td",
                                    classAttribute((column?.numeric == true ? ["num"] : []) + cell.classes)
                                        + [Attribute("data-label", column?.heading ?? "")]
                                ) { div(.class("cell")) { cell.nodes } }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The heading as a link; an arrow for the eye, and words for screen readers saying
    /// how it is sorted and what a click does.
    static func sortLink(_ heading: String, _ sort: Sort) -> HTMLNode {
        a(.href(sort.href), .class("sort")) {
            heading
            switch sort.current {
            case .ascending?:
                span(Attribute("aria-hidden", "true")) { " ▲" }
                span(.class("visually-hidden")) { ", sorted ascending; select to sort descending" }
            case .descending?:
                span(Attribute("aria-hidden", "true")) { " ▼" }
                span(.class("visually-hidden")) { ", sorted descending; select to sort ascending" }
            case nil:
                span(Attribute("aria-hidden", "true"), .class("sort-idle")) { " ↕" }
                span(.class("visually-hidden")) { ", select to sort" }
            }
        }
    }

    private func classAttribute(_ classes: [String]) -> [Attribute] {
        classes.isEmpty ? [] : [.class(classes.joined(separator: " "))]
    }
}
