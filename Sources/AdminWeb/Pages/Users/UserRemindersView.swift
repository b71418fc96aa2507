import AdminDomain
import Foundation
import HTMLRender

/// All of one user's reminders, latest time first: their local time beside UTC, lateness,
/// opened; by status and item; numbered pages.
struct UserRemindersView: HTMLComponent {
    let model: UserRemindersModel
    let viewer: Viewer

    var content: HTMLNode {
        let id = model.userID
        let page = model.page
        let fields = model.form.with(["page": nil])
        return PageLayout(pageTitle: "Reminders of \(page.email)", viewer: viewer, activeSection: .users) {
            h1 { "Reminders" }
            p {
                a(.href(SiteURL.user(id: id).href + "#reminders")) { UserText(text: page.email) }
                " · user #\(id)"
            }
            if model.zone == nil {
                p(.class("notice error"), .role("status")) {
                    "The stored timezone “"
                    UserText(text: page.timezone)
                    "” is not a timezone: “their time” below is UTC."
                }
            }
            ReminderSummary(userID: id, counts: page.summary, current: model.filter.status)
            form(.method(.get), .action(SiteURL.userReminders(id: id).href), .class("filters")) {
                SelectField(
                    label: "Status", name: "status",
                    options: UserReminders.Status.allCases.map { ($0.rawValue, ReminderSummary.label($0)) },
                    selected: fields["status"])
                SelectField(
                    label: "Kind of item", name: "kind", options: [("food", "Food"), ("document", "Document")],
                    selected: fields["kind"])
                if let item = fields.fields["item"] { input(.type("hidden"), .name("item"), .value(item)) }
                button(.type("submit"), .class("primary")) { "Filter" }
            }
            if let item = model.filter.itemID {
                p {
                    "Only the reminders of item #\(item). "
                    a(.href(SiteURL.userReminders(id: id, fields.with(["item": nil])).href)) { "All items" }
                }
            }
            for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
            if model.problems.isEmpty {
                section(.class("panel")) {
                    ReminderTable(model: model)
                    nav(.class("pager"), .ariaLabel("Pages")) {
                        if page.number > 1 {
                            a(
                                .href(
                                    SiteURL.userReminders(
                                        id: id, fields.with(["page": page.number == 2 ? nil : String(page.number - 1)])
                                    ).href)
                            ) { "Previous" }
                        }
                        span { "Page \(page.number) of \(page.pageCount)" }
                        if page.number < page.pageCount {
                            a(.href(SiteURL.userReminders(id: id, fields.with(["page": String(page.number + 1)])).href))
                            { "Next" }
                        }
                    }
                }
            }
        }.content
    }
}

private struct ReminderTable: HTMLComponent {
    let model: UserRemindersModel

    static func lateness(_ reminder: UserReminders.Reminder) -> String {
        if reminder.overdue { return "overdue: not sent" }
        guard reminder.status.known == .sent || reminder.sentAt != nil else { return "" }
        guard reminder.sentAt != nil else { return "no send time recorded" }
        guard let seconds = reminder.lateness else { return "a time does not read" }
        if seconds < 0 { return "sent \(ReminderHealthSummary.duration(-seconds)) before its time" }
        let shown = ReminderHealthSummary.duration(seconds)
        return seconds <= Reachability.lateAfterSeconds ? "on time (\(shown))" : "late by \(shown)"
    }

    var content: HTMLNode {
        let page = model.page
        let zone = model.zone
        let localHeading = zone == nil ? "Their time (UTC: no timezone)" : "Their time (\(page.timezone))"
        let caption =
            "\(Format.count(page.matching, "reminder matches", "reminders match")); page \(page.number) of "
            + "\(page.pageCount), latest time first"
        return DataTable(
            caption: caption,
            columns: [
                .init(localHeading), .init("Scheduled (UTC)"), .init("Item"), .init("Days before", numeric: true),
                .init("Status"),
                .init("Sent (UTC)"), .init("Lateness", note: "On time: sent at most 60 s after its time"),
                .init("Opened (UTC)"),
            ],
            rows: page.reminders.map { reminder in
                let local =
                    UserReminders.local(reminder.scheduledFor, in: zone ?? TimeZone(secondsFromGMT: 0)!)
                    ?? Format.stored(time: reminder.scheduledFor)
                return TableRow(
                    [
                        TableCell(local), TableCell(Format.stored(time: reminder.scheduledFor)),
                        TableCell { ItemLink(userID: model.userID, reminder: reminder) },
                        TableCell(reminder.daysBefore.map(String.init) ?? "?"),
                        TableCell {
                            reminder.overdue ? StatusBadge(UserReminders.Status.overdue) : StatusBadge(reminder.status)
                        },
                        TableCell(reminder.sentAt.map(Format.stored(time:)) ?? ""), TableCell(Self.lateness(reminder)),
                        TableCell(reminder.openedAt.map(Format.stored(time:)) ?? ""),
                    ], class: "reminder-\(reminder.overdue ? "overdue" : reminder.status.storedText)")
            }, empty: page.matching == 0 ? "No reminder matches." : "No reminder on this page: it is past the last one."
        ).content
    }
}

/// A reminder's item: its name, linking to the user's items of its kind on the profile, and
/// a link to this item's reminders. Only names: document numbers are never shown here.
private struct ItemLink: HTMLComponent {
    let userID: Int64
    let reminder: UserReminders.Reminder

    /// The user's items of that kind, opened at the page that begins with the item: its
    /// order is (nearness, id), and a page begins after the cursor it is given.
    func itemLink(_ kind: ItemKind) -> String {
        var fields = ["kind": kind.rawValue]
        if reminder.itemConsumed { fields["state"] = "consumed" }
        // An id at Int64.min (hostile, yet a valid key) has no id before it: the list's start then.
        let (before, overflow) = reminder.itemID.subtractingReportingOverflow(1)
        if let nearness = reminder.itemNearness, !reminder.itemDeleted, !overflow {
            fields["after"] = String(nearness)
            fields["after_id"] = String(before)
        }
        return SiteURL.userItems(id: userID, ItemsForm(fields: fields)).href + "#items"
    }

    var content: HTMLNode {
        let kind = reminder.itemKind.known
        return span {
            if let name = reminder.itemName, let kind {
                a(.href(itemLink(kind))) { UserText(text: name) }
                if reminder.itemDeleted { " (deleted)" }
            } else {
                "item #\(reminder.itemID) (no longer in their items)"
            }
            " · \(reminder.itemKind) · "
            if let kind {
                a(
                    .href(
                        SiteURL.userReminders(
                            id: userID, RemindersForm(fields: ["kind": kind.rawValue, "item": String(reminder.itemID)])
                        ).href)
                ) {
                    "its reminders"
                }
            }
        }
    }
}
