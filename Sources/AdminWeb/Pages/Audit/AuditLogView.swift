import AdminDomain
import HTMLRender

struct AuditLogView: HTMLComponent {
    let model: AuditLogModel
    let viewer: Viewer

    var content: HTMLNode {
        let filter = model.filter
        return PageLayout(pageTitle: "Audit log", viewer: viewer, activeSection: .auditLog) {
            h1 { "Audit log" }
            p(.class("muted")) { "Every sign-in, change and look at personal data, newest first. Times are UTC." }
            form(.method(.get), .action(SiteURL.auditLog().href), .class("filters")) {
                label {
                    "Who (email or its start)"
                    input(.type("text"), .name("actor"), .value(filter.actor), .maxlength(320))
                }
                SelectField(
                    label: "Action", name: "action", options: AuditAction.allCases.map { ($0.rawValue, $0.rawValue) },
                    selected: filter.action)
                label {
                    "Target"
                    input(
                        .type("text"), .name("target"), .value(filter.target), .maxlength(320),
                        .placeholder("user:7, campaign:18, staff:3"))
                }
                DateRangeFields.fields(from: filter.from, to: filter.to)
                button(.type("submit"), .class("primary")) { "Filter" }
                a(.href(SiteURL.auditCSV(filter).href), .class("download")) { "Download CSV" }
            }
            if let problem = model.problem {
                p(.class("notice error"), .role("alert")) { problem }
            } else {
                entries
            }
        }.content
    }

    /// The rows the filter found: only when it was understood, so that a refused filter
    /// does not also read "No entries match".
    @HTMLBuilder private var entries: [HTMLNode] {
        let filter = model.filter
        section(.class("panel")) {
            DataTable(
                caption:
                    "\(model.rows.count) \(model.rows.count == 1 ? "entry" : "entries") on this page, newest first",
                columns: [
                    .init("When"), .init("Who"), .init("From"), .init("Action"),
                    .init("Target"), .init("Detail"),
                ],
                rows: model.rows.map { row in
                    TableRow([
                        TableCell(row.at.text), TableCell(row.actorEmail ?? ""), TableCell(row.clientAddress ?? ""),
                        TableCell(row.action),
                        TableCell { AuditTargetLink(stored: row.target, viewer: viewer) },
                        TableCell { Self.detailNodes(row) },
                    ])
                },
                empty: filter.queryItems.isEmpty
                    ? "The audit log has no entries yet." : "No entries match these filters.")
            // No range: the log has no cheap count (docs/support.md).
            Pager(
                shown: model.rows.count,
                previous: model.newer.map { SiteURL.auditLog(filter, before: $0).href },
                next: model.older.map { SiteURL.auditLog(filter, after: $0).href })
        }
    }

    /// The detail, and for a row that counts several looks how many and the last one's time,
    /// first (a long list of pages seen is cut on a narrow cell, the count must not be); the
    /// date on one line: a phone's narrow cell breaks between words, never inside the date.
    @HTMLBuilder static func detailNodes(_ row: AuditRow) -> [HTMLNode] {
        if let looks = row.looks, looks > 1 {
            "\(looks) looks, the last at "
            span(.class("nowrap")) { row.lastAt?.text ?? row.at.text }
            if let detail = row.detail {
                ": "
                UserText(text: detail).content
            }
        } else {
            UserText(text: row.detail ?? "").content
        }
    }
}
