import AdminDomain
import HTMLRender

/// "Usual hour against control" in a report: users of each group, those who opened within
/// a day of the send and those who reached the goal, with each lift and its 95% interval.
struct TimingComparisonTable: HTMLComponent {
    let comparison: TimingComparison
    /// Whether the report has a goal: without one the goal columns say so.
    let hasGoal: Bool
    /// "campaign's fixed time" or "journey's own rule".
    var fixedTime = "the fixed time"

    var content: HTMLNode {
        div(.class("timing-comparison"), .id("timing-comparison")) {
            h3 { "Usual hour against control" }
            DataTable(
                caption: "Usual hour against control (control: sent at \(fixedTime))",
                columns: [
                    .init("Group"), .init("Users", numeric: true),
                    .init("Opened within a day (of those whose day is over)", numeric: true),
                    .init("Open rate", numeric: true), .init("Goal conversions", numeric: true),
                    .init("Conversion rate", numeric: true),
                ],
                rows: [
                    TableRow(
                        Self.cells("At their usual hour", comparison.usual, hasGoal: hasGoal).map { TableCell($0) },
                        id: "timing-usual"),
                    TableRow(
                        Self.cells("Control: sent at \(fixedTime)", comparison.control, hasGoal: hasGoal).map {
                            TableCell($0)
                        }, id: "timing-control"),
                ])
            p(.id("timing-open-lift")) {
                "Opens within a day: "
                Self.openLiftSentence(comparison)
            }
            if comparison.usual.waiting + comparison.control.waiting > 0 {
                p(.id("timing-waiting")) {
                    "\(Format.grouped(comparison.usual.waiting)) at their usual hour and "
                        + "\(Format.grouped(comparison.control.waiting)) in the control "
                        + "have not had a day since their push was due (or it has not gone yet): they are not counted "
                        + "for opens until they have."
                }
            }
            p(.id("timing-goal-lift")) {
                "Goal conversions: "
                if hasGoal {
                    comparison.control.users == 0 && comparison.usual.users > 0
                        ? "no control share was chosen, so there is nothing to compare."
                        : comparison.goalLift.map { Self.lift($0) }
                            ?? "no lift yet: goals are compared once each group's goal window has closed."
                } else {
                    "no goal, so only opens are compared."
                }
            }
            p(.class("muted")) {
                "Both groups are drawn at random from the same recipients (the holdout is in neither). A push counts "
                    + "as opened within a day when the panel read its open within 24 hours of the provider accepting "
                    + "it."
            }
        }
    }

    /// "+2.4 points (95% interval −1.0 to +5.8): not distinguishable from no change …", as the holdout's lift reads.
    static func lift(_ lift: LiftInterval) -> String {
        "\(CampaignImpactView.points(lift.difference)) (95% interval \(CampaignImpactView.signed(lift.lower)) to "
            + "\(CampaignImpactView.signed(lift.upper))): \(lift.sentence)."
    }

    static func openLiftSentence(_ comparison: TimingComparison) -> String {
        if comparison.control.users == 0 && comparison.usual.users > 0 {
            return "no control share was chosen, so there is nothing to compare."
        }
        return comparison.openLift.map { Self.lift($0) }
            ?? "no lift yet: in each group some pushes must have had a day since they were due."
    }

    static func cells(_ name: String, _ group: TimingComparison.Group, hasGoal: Bool) -> [String] {
        [
            name, Format.grouped(group.users),
            "\(Format.grouped(group.openedInDay)) of \(Format.grouped(group.openJudged))",
            Format.percent(group.openRate),
        ]
            + (hasGoal
                ? [
                    "\(Format.grouped(group.converted)) of \(Format.grouped(group.judged))",
                    Format.percent(group.conversionRate),
                ] : ["—", "—"])
    }
}
