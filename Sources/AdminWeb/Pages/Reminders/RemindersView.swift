import AdminDomain
import Foundation
import HTMLRender

/// The reminder health page: one range's figures, their splits, the chart, SC-002 and SC-011;
/// before the first count, a sentence that they are being counted.
struct RemindersView: HTMLComponent {
    let model: RemindersModel
    let viewer: Viewer

    var content: HTMLNode {
        // Before the first count the page reloads itself to show the figures once they are in.
        PageLayout(
            pageTitle: "Reminders", viewer: viewer, activeSection: .reminders,
            headExtras: model.snapshot == nil ? [meta(Attribute("http-equiv", "refresh"), .content("5"))] : []
        ) {
            h1 { "Reminder health" }
            PeriodTabs(
                periods: ReminderRange.allCases.map { ($0.label, .reminders($0), $0 == model.range) })
            if let snapshot = model.snapshot, let report = model.report {
                p(.class("muted")) {
                    AsOf(date: snapshot.asOf)
                    " Reminders due (scheduled_for) \(model.range.label.lowercased()) up to then; re-read every "
                        + "\(model.refreshSeconds) s, all 30 days read again hourly. Times are UTC."
                }
                ReminderFiguresSection(model: model, snapshot: snapshot, report: report)
            } else {
                p(.class("notice"), .role("status")) {
                    "The reminder figures are being counted: the first count reads the last 30 days of reminders and "
                        + "takes a few seconds on a big database. This page reloads itself and shows them when it is "
                        + "done."
                }
            }
        }.content
    }
}

/// Everything under the tabs once the figures are counted.
struct ReminderFiguresSection: HTMLComponent {
    let model: RemindersModel
    let snapshot: ReminderHealthSnapshot
    let report: ReminderHealthReport

    var content: HTMLNode {
        let figures = report.figures
        return div(.class("reminders")) {
            if figures.due == 0 {
                p(.class("notice"), .role("status")) {
                    "No reminder was due in this period (\(model.range.label.lowercased())): there is nothing to "
                        + "measure."
                }
            }
            section(.ariaLabel("Headline figures")) {
                h2(.id("figures")) { "Figures" }
                div(.class("stat-grid")) {
                    StatCard(
                        label: "Due", value: figures.due.grouped,
                        detail: "scheduled_for in the period and not in the future")
                    StatCard(label: "Sent", value: figures.sent.grouped, detail: "status sent, whatever its times")
                    StatCard(
                        label: "Sent on time", value: figures.sentOnTime.grouped,
                        detail:
                            "\(Format.percent(figures.onTimeShare)) of those due more than a minute ago and not "
                            + "cancelled; at most 60 s after scheduled_for"
                    )
                    StatCard(
                        label: "Lateness",
                        value: figures.lateness.map { "p90 " + ReminderHealthSummary.duration($0.p90) } ?? "n/a",
                        detail: figures.lateness.map {
                            "p50 \(ReminderHealthSummary.duration($0.p50)), p99 "
                                + "\(ReminderHealthSummary.duration($0.p99)), largest "
                                + "\(ReminderHealthSummary.duration($0.max)), over "
                                + "\(Format.count($0.count, "sent reminder", "sent reminders"))"
                        } ?? "no sent reminder whose times read")
                    StatCard(
                        label: "Failed", value: figures.failed.grouped,
                        detail: "success rate \(Format.percent(figures.successRate)): sent / (sent + failed)")
                    StatCard(
                        label: "Cancelled", value: figures.cancelled.grouped,
                        detail: "not meant to go: out of the on-time share")
                    StatCard(
                        label: "Overdue", value: figures.overdue.grouped,
                        detail:
                            "still scheduled more than 5 minutes after their time; \(figures.waiting.grouped) more due "
                            + "in the last 5 minutes"
                    )
                    StatCard(
                        label: "Opened", value: figures.opened.grouped,
                        detail: "\(Format.percent(figures.openedShare)) of those sent")
                }
            }
            section(.class("panel"), .ariaLabel("Counted apart")) {
                h2(.id("counted-apart")) { "Counted apart" }
                p {
                    "These rows' times do not read or are out of order: they are counted here and never in a "
                        + "percentile, nor as on time."
                }
                dl(.class("facts")) {
                    dt { "Sent, with a sent time that does not read" }
                    dd { figures.sentTimeUnreadable.grouped }
                    dt { "Sent before their scheduled time" }
                    dd { figures.sentBeforeScheduled.grouped }
                    dt { "Scheduled time that does not read (in no period)" }
                    dd { snapshot.scheduledTimeUnreadable.grouped }
                }
            }
            section(.class("panel")) {
                h2(.id("criteria")) { "Success criteria" }
                ReminderCriteria(sc002: report.sc002, sc011: report.sc011)
            }
            section(.class("panel")) {
                h2(.id("chart")) { model.range.bucketSeconds == 3_600 ? "By hour, the last 24 hours" : "By day" }
                ReminderChart(model: model, report: report, asOf: snapshot.asOf)
            }
            section(.class("panel")) {
                h2(.id("splits")) { "Split" }
                ReminderSplitTable(caption: "By item kind", heading: "Kind", splits: model.byKind)
                ReminderSplitTable(caption: "By days before expiry", heading: "Days before", splits: model.byDaysBefore)
                ReminderSplitTable(
                    caption: "By the user's platforms (their devices now)", heading: "Platforms",
                    splits: model.byPlatforms)
            }
            p(.class("chart-links")) {
                a(.href(SiteURL.remindersCSV(model.range).href)) { "Download these figures as CSV" }
            }
        }
    }
}

/// SC-002 and SC-011 against their targets, each defined in words.
struct ReminderCriteria: HTMLComponent {
    let sc002: ReminderCriterion
    let sc011: ReminderCriterion

    var content: HTMLNode {
        DataTable(
            caption: "The app's success criteria for reminders",
            columns: [
                .init("Criterion"), .init("Definition"), .init("Measured", numeric: true),
                .init("Target", numeric: true), .init("Met"),
            ],
            rows: [
                Self.row(
                    "SC-002",
                    "Users with a reminder due in the period of whom at least one reminder was sent on time and "
                        + "opened, over the users with a reminder due",
                    sc002, "users"),
                Self.row("SC-011", "Reminders sent over reminders sent or failed", sc011, "reminders"),
            ]
        ).content
    }

    private static func row(_ name: String, _ definition: String, _ criterion: ReminderCriterion, _ things: String)
        -> TableRow
    {
        TableRow([
            TableCell(name), TableCell(definition), TableCell(measured(criterion, things)),
            TableCell(Format.percent(criterion.target, decimals: 0)),
            TableCell { StatusBadge(CriterionVerdict(criterion)) },
        ])
    }

    static func measured(_ criterion: ReminderCriterion, _ things: String) -> String {
        guard criterion.value != nil else { return "nothing to measure" }
        return
            "\(Format.percent(criterion.value)) (\(criterion.numerator.grouped) of \(criterion.denominator.grouped) "
            + "\(things))"
    }
}

/// One split as a table: a line a kind (or days, or platforms) with its figures.
struct ReminderSplitTable: HTMLComponent {
    let caption: String
    let heading: String
    let splits: [RemindersModel.Split]

    var content: HTMLNode {
        if splits.isEmpty {
            return p(.class("muted")) { caption + ": no reminder due." }
        }
        return DataTable(
            caption: caption, columns: [.init(heading)] + Self.columns,
            rows: splits.map { [$0.label] + Self.cells($0.figures) }
        ).content
    }

    static let columns: [DataTable.Column] = [
        "Due", "Sent", "On time", "On-time share", "Lateness p90", "Failed", "Cancelled", "Overdue", "Opened",
    ]
    .map { DataTable.Column($0, numeric: true) }

    static func cells(_ figures: ReminderFigures) -> [String] {
        [
            figures.due.grouped, figures.sent.grouped, figures.sentOnTime.grouped, Format.percent(figures.onTimeShare),
            figures.lateness.map { ReminderHealthSummary.duration($0.p90) } ?? "n/a", figures.failed.grouped,
            figures.cancelled.grouped,
            figures.overdue.grouped, figures.opened.grouped,
        ]
    }
}

/// The on-time share, lateness p90 and overdue count per hour or day, drawn with the
/// dashboard's line chart, and their numbers in a table.
struct ReminderChart: HTMLComponent {
    let model: RemindersModel
    let report: ReminderHealthReport
    let asOf: Date

    var content: HTMLNode {
        let hourly = model.range.bucketSeconds == 3_600
        let labels = report.points.map { point in
            // The x axis of days writes the day itself; the star is in the table.
            hourly ? model.label(point) : String(model.label(point).prefix(10))
        }
        func chart(_ title: String, _ valueLabel: String, _ values: [Int?]) -> DashboardChart {
            // The id only names a dashboard chart's CSV, which this page does not link to.
            DashboardChart.line(
                id: .campaignConversions, title: title, axis: hourly ? .categories : .days, valueLabel: valueLabel,
                labels: labels, series: [(title, values)], asOf: asOf, labelsName: hourly ? "Hour (UTC)" : nil)
        }
        let charts = [
            chart(
                "On-time share (target \(Format.percent(model.onTimeTarget, decimals: 0)))", "percent",
                report.points.map { point in point.figures.onTimeShare.map { Int(($0 * 100).rounded()) } }),
            chart("Lateness p90", "seconds", report.points.map { point in point.figures.lateness.map { Int($0.p90) } }),
            chart("Overdue", "reminders", report.points.map { $0.figures.overdue }),
        ]
        return div {
            div(.class("chart-grid")) {
                for drawn in charts {
                    div(.class("chart-panel")) {
                        h3 { drawn.title }
                        figure(.class("chart")) { LineChart(chart: drawn) }
                    }
                }
            }
            p(.class("muted")) {
                "* The \(hourly ? "hour" : "day") still going on: its figures are not final. A period with no share or "
                    + "lateness to show is a gap in its line; the table says n/a."
            }
            details {
                summary { "The numbers" }
                DataTable(
                    caption: hourly ? "By hour (UTC)" : "By day (UTC)",
                    columns: [
                        .init(hourly ? "Hour" : "Day"), .init("Due", numeric: true),
                        .init("On-time share", numeric: true),
                        .init("Lateness p90", numeric: true), .init("Overdue", numeric: true),
                    ],
                    rows: report.points.reversed().map { point in
                        [
                            model.label(point), point.figures.due.grouped, Format.percent(point.figures.onTimeShare),
                            point.figures.lateness.map { ReminderHealthSummary.duration($0.p90) } ?? "n/a",
                            point.figures.overdue.grouped,
                        ]
                    })
            }
        }
    }
}
