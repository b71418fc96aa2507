import AdminDomain
import HTMLRender

/// What a journey did, per day of entry (UTC) and in total, with a chart, the exits by
/// reason and the lift against the holdout in words.
struct JourneyReportSection: HTMLComponent {
    let journey: JourneyRecord
    let report: JourneyReport

    static let columns: [DataTable.Column] = [
        .init("Day (UTC)"), .init("Entered", numeric: true), .init("Held out", numeric: true),
        .init("Sent", numeric: true),
        .init("Waiting", numeric: true), .init("Exited", numeric: true), .init("Capped", numeric: true),
        .init("Limited", numeric: true),
        .init("Expired", numeric: true), .init("Received", numeric: true), .init("Opened", numeric: true),
    ]

    static func cells(_ label: String, _ figures: JourneyReport.Figures) -> [String] {
        [label]
            + [
                figures.entered, figures.heldOut, figures.sent, figures.waiting, figures.exited, figures.capped,
                figures.limited,
                figures.expired, figures.received, figures.opened,
            ].map(Format.grouped)
    }

    var content: HTMLNode {
        let total = report.total
        return section(.class("panel"), .id("report")) {
            h2 { "Report" }
            if report.days.isEmpty {
                p(.class("muted"), .id("report-empty")) {
                    "Nobody has entered yet. Entries appear here as users cross the trigger."
                }
            } else {
                JourneyDayChart(days: Array(report.days.prefix(30)))
                DataTable(
                    caption:
                        "Entries by the day they entered, newest first, and in total. Sent: the push went out; "
                        + "waiting: due later; "
                        + "capped: the weekly maximum of campaign pushes was reached; limited: over the daily limit; "
                        + "expired: no time to send within 24 hours.",
                    columns: Self.columns,
                    rows: report.days.map { TableRow(Self.cells($0.day, $0.figures).map { TableCell($0) }) }
                        + [
                            TableRow(
                                Self.cells("Total", total).map { TableCell($0) }, class: "total", id: "report-total")
                        ])
                if !total.exits.isEmpty {
                    DataTable(
                        caption: "Exits by reason: entries that were not sent their push",
                        columns: [.init("Reason"), .init("Entries", numeric: true)],
                        rows: total.exits.sorted { $0.value > $1.value }.map {
                            TableRow([TableCell(JourneyExit.label(of: $0.key)), TableCell(Format.grouped($0.value))])
                        })
                }
            }
            h3 { "Lift" }
            if let goal = report.goal {
                p(.id("lift")) {
                    "Goal: \(goal.label), within \(Format.count(report.goalDays, "day", "days")) of entering. "
                    "Sent the push: \(Self.group(total.sentGroup)); held out: \(Self.group(total.holdout)). "
                    if let lift = total.lift {
                        "Lift: \(CampaignImpactView.interval(lift)) points, \(lift.sentence)."
                    } else {
                        "No lift yet: both groups need entries whose goal window has closed."
                    }
                }
            } else {
                p(.class("muted"), .id("lift")) { "This journey has no goal: it reports opens only." }
            }
            if journey.campaign.timing?.controlPercent != nil
                || total.timing.usual.users + total.timing.control.users > 0
            {
                TimingComparisonTable(
                    comparison: total.timing, hasGoal: report.goal != nil,
                    fixedTime: "the journey's own time, its daily time or window")
            }
        }
    }

    static func group(_ group: JourneyReport.Group) -> String {
        "\(Format.grouped(group.converted)) of \(Format.grouped(group.judged)) converted "
            + "(\(Format.percent(group.rate)))"
    }
}
