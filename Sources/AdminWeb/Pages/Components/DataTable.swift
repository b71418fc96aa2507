import HTMLRender

/// A table of text cells with a caption and column headings; cells are escaped like all text.
struct DataTable: HTMLComponent {
    struct Column {
        let heading: String
        var numeric = false
    }

    let caption: String
    let columns: [Column]
    let rows: [[String]]

    var content: HTMLNode {
        div(.class("table-wrap")) {
            table(.class("data")) {
                HTMLRender.caption { caption }
                thead {
                    tr {
                        for column in columns {
                            element("th", column.numeric ? [.scope("col"), .class("num")] : [.scope("col")]) { column.heading }
                        }
                    }
                }
                tbody {
                    for row in rows {
                        tr {
                            for (index, cell) in row.enumerated() {
                                element("td", index < columns.count && columns[index].numeric ? [.class("num")] : []) { cell }
                            }
                        }
                    }
                }
            }
        }
    }
}
