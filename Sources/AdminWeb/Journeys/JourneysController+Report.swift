import AdminDomain
import Foundation
import Hummingbird

/// The journey form's rule for refusals on the way (control characters, an old token), and
/// the report as CSV.
extension JourneysController {
    func formRule(editing: Bool) -> FormRules.Rule {
        var labels = CampaignsController.composerLabels
        labels["send_at"] = "the sending time"
        return FormRules.Rule(
            multiLine: ["body", "body_b", "body_c", "body_d"], labels: labels,
            showAgain: { [self] form, refusal, context in
                let id = editing ? context.parameters.get("id", as: Int64.self) : nil
                return refused(
                    JourneyForm(form: form), [refusal.sentence], status: refusal.status, editing: id, context)
            })
    }

    @Sendable func reportCSV(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try journeyID(context)
        guard try await source.journeys.find(id) != nil else { throw PanelError.notFound("No journey #\(id).") }
        let report = try await source.reports.report(id)
        return try await JourneyReportCSV.exported(
            report, kind: "journey", id: id, name: "report", action: .journeyReportExported,
            detail: "report per day and in total", auditLog: auditLog, context: context)
    }
}

/// The report as rows: one per day of entry, then the total, then the exits by reason.
enum JourneyReportCSV: ReportCSV {
    static let header = [
        "section", "day_utc", "reason", "entered", "held_out", "sent", "waiting", "exited", "capped", "limited",
        "expired",
        "received", "opened", "sent_judged", "sent_converted", "holdout_judged", "holdout_converted",
        "lift", "lift_lower_95", "lift_upper_95", "goal", "goal_days",
    ]
    static let numericColumns: Set<Int> = Set(3...19)

    static func rows(_ report: JourneyReport) -> [[String]] {
        let goal = [report.goal?.rawValue ?? "", String(report.goalDays)]
        func line(_ section: String, _ day: String, _ figures: JourneyReport.Figures) -> [String] {
            let lift = figures.lift
            return [section, day, ""]
                + [
                    figures.entered, figures.heldOut, figures.sent, figures.waiting, figures.exited, figures.capped,
                    figures.limited, figures.expired, figures.received, figures.opened, figures.sentGroup.judged,
                    figures.sentGroup.converted, figures.holdout.judged, figures.holdout.converted,
                ].map(String.init)
                + [
                    CampaignReportCSV.number(lift?.difference), CampaignReportCSV.number(lift?.lower),
                    CampaignReportCSV.number(lift?.upper),
                ] + goal
        }
        var rows = report.days.map { line("day", $0.day, $0.figures) }
        rows.append(line("total", "", report.total))
        // Usual hour against control, in total: entered = users, opened = opened within a day,
        // sent_judged/sent_converted = the group's judged and converted; lift: the goal's.
        let timing = report.total.timing
        for (name, group, lift) in [
            ("timing_usual_hour", timing.usual, timing.goalLift), ("timing_control_own_rule", timing.control, nil),
        ]
        where timing.usual.users + timing.control.users > 0 {
            rows.append(
                [name, "", ""] + [group.users].map(String.init) + Array(repeating: "", count: 8) + [
                    String(group.openedInDay),
                    String(group.judged), String(group.converted), "", "",
                ]
                    + [
                        CampaignReportCSV.number(lift?.difference), CampaignReportCSV.number(lift?.lower),
                        CampaignReportCSV.number(lift?.upper),
                    ] + goal)
        }
        for (reason, count) in report.total.exits.sorted(by: { $0.key < $1.key }) {
            rows.append(["exit", "", reason, "", "", "", "", String(count)] + Array(repeating: "", count: 12) + goal)
        }
        return rows
    }
}
