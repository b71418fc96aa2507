import AdminDomain
import Foundation
import HTMLRender

/// "Did this push change what people did?": recipients against the holdout, by variant and
/// platform, with the lift's 95% interval in numbers and in words, and the conversions by day.
struct CampaignImpactView: HTMLComponent {
    let campaign: CampaignRecord
    let impact: CampaignImpact?
    var nobodyDrawn = false
    let viewer: Viewer

    var content: HTMLNode {
        section(.class("panel"), .id("impact-section")) {
            h2 { "Impact" }
            // Only this part is replaced as the report refreshes: the winner's form below keeps what was chosen.
            div(.id("impact")) { reportPart }
            winnerSection
        }
    }

    @HTMLBuilder private var reportPart: [HTMLNode] {
        if let impact {
            report(impact)
        } else if nobodyDrawn {
            p {
                "No report: nobody was drawn when the audience was frozen (it was empty, or the campaign was launched "
                    + "before the panel measured campaigns)."
            }
        } else {
            p(.role("status")) {
                campaign.status.known == .materialising
                    ? "The report begins once the audience is frozen: this section fills by itself."
                    : "The report is being computed: this section fills by itself."
            }
        }
    }

    @HTMLBuilder private func report(_ impact: CampaignImpact) -> [HTMLNode] {
        let experiment = campaign.experiment
        p {
            if let goal = impact.goal {
                "Goal: \(goal.label), within \(Format.count(experiment.goalDays, "day", "days")) of the send time ("
                span(.class("nowrap")) { SQLiteTime.string(impact.windowStart) }
                " to "
                span(.class("nowrap")) { SQLiteTime.string(impact.windowEnd) + " UTC" }
                "). "
            } else {
                "No goal: the report shows who opened the push. "
            }
            impact.windowClosed ? "Final as of " : "As of "
            AsOfTime(date: impact.asOf)
            impact.windowClosed ? "." : "; kept up to date in the background."
        }
        if impact.asOf < impact.windowStart {
            p(.role("status")) {
                "The goal's window opens at the send time, "
                span(.class("nowrap")) { SQLiteTime.string(impact.windowStart) + " UTC" }
                ": nothing is counted before it."
            }
        }
        let restHeld = impact.restHeld == true
        if restHeld {
            p(.id("test-share-only")) {
                strong { "While the winner test runs, the recipients are the test share only" }
                ": the \(Format.count(impact.variants.map(\.group.users).reduce(0, +), "user", "users")) drawn to get "
                "a variant, against the holdout. The "
                "rest\(impact.rest.map { " (\(Format.count($0.users, "user", "users")))" } ?? "") have been sent "
                "nothing, so they are not counted as recipients until the winner goes to them."
            }
        }
        DataTable(
            caption: "Recipients against the holdout", columns: Self.columns(goal: impact.goal),
            rows: [
                Self.row(
                    restHeld ? "Recipients: the test share (drawn to get a variant)" : "Recipients (drawn to get it)",
                    impact.recipients, goal: impact.goal),
                Self.row("Holdout (drawn to get nothing)", impact.holdout, goal: impact.goal, opens: false),
            ])
        p(.class("muted")) {
            "Both groups are drawn at random from the same reachable users when the audience is frozen, and compared "
            "as drawn: a recipient counts whatever became of their push (waiting, capped, failed or never opened)."
            if campaign.totals.accepted == 0 { " Nothing has gone out yet, so no difference so far can be the push's." }
        }
        if let lift = impact.lift {
            p(.class("lift"), .id("lift")) {
                strong { "Lift\(restHeld ? " of the test share" : ""): \(Self.points(lift.difference))" }
                " (95% interval \(Self.points(lift.lower)) to \(Self.points(lift.upper)), Newcombe's hybrid score "
                    + "method): "
                lift.sentence + "."
            }
        } else if impact.goal != nil {
            p(.class("muted")) {
                impact.holdout.users == 0
                    ? "No holdout: there is nothing to measure a lift against." : "No lift yet: a group is empty."
            }
        }
        if let timing = impact.timing {
            TimingComparisonTable(
                comparison: timing, hasGoal: impact.goal != nil, fixedTime: "the campaign's fixed time")
        }
        if impact.variants.count > 1 || impact.rest != nil {
            DataTable(
                caption: "By variant",
                columns: Self.columns(goal: impact.goal) + [
                    DataTable.Column("Lift against the holdout, points (95% interval)")
                ],
                rows: impact.variants.map { row in
                    Self.row(
                        "Variant \(row.variant.letter)"
                            + (campaign.winner?.variant.known == row.variant ? " (winner)" : ""), row.group,
                        goal: impact.goal, extra: [row.lift.map(Self.interval) ?? "n/a"])
                }
                    + (impact.rest.map {
                        [
                            Self.row(
                                restLabel, $0, goal: impact.goal,
                                extra: [restHeld ? "not counted: sent nothing yet" : "counted with the recipients"])
                        ]
                    } ?? []))
        }
        if impact.goal == nil {
            DataTable(
                caption: "By platform (users reachable on both count once, as both)",
                columns: [
                    DataTable.Column("Platform"), DataTable.Column("Recipients", numeric: true),
                    DataTable.Column("Opened the push", numeric: true),
                    DataTable.Column("Open rate", numeric: true), DataTable.Column("Holdout", numeric: true),
                ],
                rows: impact.platforms.map { row in
                    [
                        Self.platformName(row.platform), Format.grouped(row.recipients.users),
                        Format.grouped(row.recipients.opened),
                        Format.percent(row.recipients.openRate), Format.grouped(row.holdout.users),
                    ]
                })
        } else {
            DataTable(
                caption: "By platform (users reachable on both count once, as both)",
                columns: [
                    DataTable.Column("Platform"), DataTable.Column("Recipients", numeric: true),
                    DataTable.Column("Recipients converted", numeric: true),
                    DataTable.Column("Recipients' rate", numeric: true), DataTable.Column("Holdout", numeric: true),
                    DataTable.Column("Holdout converted", numeric: true),
                    DataTable.Column("Holdout's rate", numeric: true),
                    DataTable.Column("Lift, points (95% interval)"),
                ],
                rows: impact.platforms.map { row in
                    [
                        Self.platformName(row.platform), Format.grouped(row.recipients.users),
                        Format.grouped(row.recipients.converted),
                        Format.percent(row.recipients.conversionRate), Format.grouped(row.holdout.users),
                        Format.grouped(row.holdout.converted),
                        Format.percent(row.holdout.conversionRate), row.lift.map(Self.interval) ?? "n/a",
                    ]
                })
        }
        if impact.goal != nil {
            ReportChart(chart: impact.conversionChart)
        }
        if impact.unreadableTimes > 0 {
            p(.class("muted")) {
                "\(Format.count(impact.unreadableTimes, "goal event", "goal events")) of this campaign's users had a "
                    + "time that does not read as a time: counted for nobody."
            }
        }
        p { a(.href(SiteURL.campaignReport(id: campaign.id).href), .class("button")) { "Download the report as CSV" } }
    }

    private var restLabel: String {
        if let winner = campaign.winner {
            return "The rest (drawn to get the winner, \(winner.variant.known?.letter ?? winner.variant.description))"
        }
        if campaign.status.known?.isEnded == true { return "The rest (never sent: the campaign ended before a winner)" }
        return "The rest (waiting for the winner)"
    }

    @HTMLBuilder private var winnerSection: [HTMLNode] {
        let experiment = campaign.experiment
        if let test = experiment.testPercent {
            h3 { "Winner test" }
            if let winner = campaign.winner {
                p(.id("winner")) {
                    "Winner: variant \(winner.variant.known?.letter ?? winner.variant.description), chosen at "
                    span(.class("nowrap")) { (winner.at?.text ?? "") + " UTC" }
                    " — "
                    winner.detail
                }
            } else if campaign.status.known?.isEnded == true {
                p(.id("winner")) {
                    "No winner was chosen: the campaign ended before its wait did, and the rest got nothing."
                }
            } else {
                let due = campaign.measuredFrom.map {
                    SQLiteTime.string($0.addingTimeInterval(TimeInterval((experiment.winnerWaitHours ?? 24) * 3_600)))
                }
                p {
                    "The variants went to \(test)% of the recipients. The panel chooses the variant with the best "
                    "\(experiment.goal == nil ? "open rate" : "goal conversion") at "
                    span(.class("nowrap")) { (due ?? "?") + " UTC" }
                    " and sends it to the rest, unless you choose one first."
                }
                if campaign.status.known == .sending || campaign.status.known == .paused {
                    HTMLRender.form(
                        .method(.post), .action(SiteURL.campaignWinner(id: campaign.id).href), .class("inline spaced")
                    ) {
                        CSRFField(token: viewer.csrfToken)
                        label {
                            "Variant"
                            select(.name("variant"), .required) {
                                for letter in experiment.letters {
                                    option(.value(letter.rawValue)) { "Variant \(letter.letter)" }
                                }
                            }
                        }
                        label(.class("check")) {
                            input(.type("checkbox"), .name("confirm"), .value("yes"), .required)
                            " Yes, send it to the rest now: this cannot be undone"
                        }
                        button(.type("submit")) { "Send this variant to the rest now" }
                    }
                }
            }
        }
    }

    /// Without a goal there is nothing converted to show: users and opens only.
    static func columns(goal: CampaignGoal?) -> [DataTable.Column] {
        [DataTable.Column("Group"), DataTable.Column("Users", numeric: true)]
            + (goal == nil
                ? []
                : [DataTable.Column("Converted", numeric: true), DataTable.Column("Conversion rate", numeric: true)])
            + [DataTable.Column("Opened the push", numeric: true), DataTable.Column("Open rate", numeric: true)]
    }

    static func row(
        _ name: String, _ group: CampaignImpact.Group, goal: CampaignGoal?, opens: Bool = true, extra: [String] = []
    ) -> [String] {
        [name, Format.grouped(group.users)]
            + (goal == nil ? [] : [Format.grouped(group.converted), Format.percent(group.conversionRate)])
            + [opens ? Format.grouped(group.opened) : "—", opens ? Format.percent(group.openRate) : "—"] + extra
    }

    /// "+2.4 points": a difference of two rates, in percentage points.
    static func points(_ value: Double) -> String {
        signed(value) + " points"
    }

    /// "+8.1 (−10.0 to +22.6)", in percentage points.
    static func interval(_ lift: LiftInterval) -> String {
        "\(signed(lift.difference)) (\(signed(lift.lower)) to \(signed(lift.upper)))"
    }

    static func signed(_ value: Double) -> String {
        String(format: "%@%.1f", value > 0.00049 ? "+" : (value < -0.00049 ? "−" : ""), abs(value) * 100)
    }

    static func platformName(_ platform: String) -> String {
        switch platform {
        case "ios": "iOS"
        case "android": "Android"
        case "both": "Both"
        default: "Other"
        }
    }
}

/// A chart inside a report: its title, legend, drawing, definition and numbers, without the
/// dashboard's CSV link.
struct ReportChart: HTMLComponent {
    let chart: DashboardChart

    var content: HTMLNode {
        div(.class("chart-panel"), .id("chart-\(chart.id.rawValue)")) {
            h3 { chart.title }
            figure(.class("chart")) {
                ul(.class("legend")) {
                    for (number, series) in chart.series.enumerated() {
                        li {
                            span(.class("swatch s\(number % ChartSVG.colours)"), Attribute("aria-hidden", "true"))
                            series.name
                        }
                    }
                }
                LineChart(chart: chart)
                figcaption { chart.note }
            }
            details {
                summary { "The numbers" }
                ChartTable(chart: chart, geometry: ChartGeometry(peak: 0, unit: chart.unit))
            }
        }
    }
}
