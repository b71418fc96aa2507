import AdminDomain
import Foundation
import Hummingbird

/// The impact report's actions: choosing the winner by hand, and the report as CSV.
extension CampaignsController {
    @Sendable func chooseWinner(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        let form = try await request.formFields()
        let typed = (form["variant"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard form["confirm"] == "yes" else {
            let sentence =
                "Tick “Yes, send it to the rest now” to choose the winner: it cannot be undone. Nothing changed."
            return try await page(context, .init(id: id, problems: [sentence]), status: .badRequest).response()
        }
        guard let variant = MessageVariant(rawValue: typed.lowercased()) else {
            let sentence =
                "There is no variant “\(typed.prefix(20))”: choose one of the campaign's variants. Nothing changed."
            return try await page(context, .init(id: id, problems: [sentence]), status: .badRequest).response()
        }
        // The figures the choice was made on, as the report showed them.
        let report = try await source.impact.report(id)
        let row = report?.variants.first { $0.variant == variant }
        let figures = row.map { CampaignImpactTracker.figures($0, goal: report?.goal) } ?? "no figures yet"
        do {
            try await source.campaigns.chooseWinner(
                id, variant: variant, figures: figures, by: actor(context), byRule: false)
        } catch let error as CampaignError {
            return try await page(
                context, .init(id: id, problems: ["Nothing changed: \(error.description)."]), status: .conflict
            ).response()
        }
        await source.progress.forget(id)
        // The rest count as recipients from now: the page after shows the report that says so.
        try await source.impact.refresh()
        return .redirect(to: SiteURL.campaign(id: id).href + "#impact", type: .normal)
    }

    @Sendable func reportCSV(request: Request, context: StaffRequestContext) async throws -> Response {
        let id = try campaignID(context)
        guard let campaign = try await source.campaigns.find(id) else {
            throw PanelError.notFound("No campaign #\(id).")
        }
        let frozen = campaign.status.known.map(CampaignImpactTracker.isFrozen) == true
        // Never computed here (issue 46): the background job makes it.
        guard let report = try await source.impact.report(id) else {
            if frozen, try await !source.campaigns.hasMembers(id) {
                throw PanelError(
                    status: .notFound,
                    sentence: "Campaign #\(id) drew nobody when its audience was frozen: there is no report.")
            }
            if frozen {
                throw PanelError(
                    status: .serviceUnavailable,
                    sentence: "Campaign #\(id)'s report is being computed: try again in a few seconds.",
                    retryAfterSeconds: 5)
            }
            throw PanelError(
                status: .notFound,
                sentence: "Campaign #\(id) has no report yet: it is made once the audience is frozen.")
        }
        return try await CampaignReportCSV.exported(
            report, kind: "campaign", id: id, name: "impact", action: .campaignReportExported,
            detail: "impact report as of \(SQLiteTime.string(report.asOf))", auditLog: auditLog, context: context)
    }
}

/// The report as rows: one per group, with its rates and its lift against the holdout.
enum CampaignReportCSV: ReportCSV {
    static let header = [
        "section", "group", "users", "converted", "conversion_rate", "opened", "open_rate",
        "lift", "lift_lower_95", "lift_upper_95", "goal", "window_start_utc", "window_end_utc", "as_of_utc",
    ]

    static func rows(_ report: CampaignImpact) -> [[String]] {
        let context = [
            report.goal?.rawValue ?? "", SQLiteTime.string(report.windowStart), SQLiteTime.string(report.windowEnd),
            SQLiteTime.string(report.asOf),
        ]
        func line(_ section: String, _ name: String, _ group: CampaignImpact.Group, _ lift: LiftInterval?) -> [String] {
            [
                section, name, String(group.users), String(group.converted), rate(group.conversionRate),
                String(group.opened), rate(group.openRate),
                number(lift?.difference), number(lift?.lower), number(lift?.upper),
            ] + context
        }
        var holdout = line("overall", "holdout", report.holdout, nil)
        // Held-out users were sent nothing to open: no open figures, as on the page.
        holdout[5] = ""
        holdout[6] = ""
        // While a winner test's rest is held, the recipients are the test share only.
        var rows = [
            line(
                "overall", report.restHeld == true ? "recipients_test_share" : "recipients", report.recipients,
                report.lift), holdout,
        ]
        rows += report.variants.map { line("variant", $0.variant.rawValue, $0.group, $0.lift) }
        if let rest = report.rest { rows.append(line("variant", "rest", rest, nil)) }
        // Usual hour against control: "opened" is within a day of the send; each lift its own row.
        if let timing = report.timing {
            func timed(_ name: String, _ group: TimingComparison.Group, _ lift: LiftInterval?) -> [String] {
                [
                    "timing", name, String(group.users), String(group.converted), rate(group.conversionRate),
                    String(group.openedInDay),
                    rate(group.openRate), number(lift?.difference), number(lift?.lower), number(lift?.upper),
                ] + context
            }
            rows.append(timed("usual_hour (lift: goal)", timing.usual, timing.goalLift))
            rows.append(timed("usual_hour (lift: opened within a day)", timing.usual, timing.openLift))
            rows.append(timed("control_fixed_time", timing.control, nil))
        }
        for platform in report.platforms {
            rows.append(line("platform", platform.platform, platform.recipients, platform.lift))
            rows.append(line("platform", platform.platform + " holdout", platform.holdout, nil))
        }
        // Days the report has reached, as the chart.
        let elapsed = report.asOf.timeIntervalSince(report.windowStart)
        for day in report.days where Double(day.index) * 86_400 <= elapsed {
            rows.append(["day", "day \(day.index + 1)", "", String(day.recipients), "", "", "", "", "", ""] + context)
            rows.append(
                ["day", "day \(day.index + 1) holdout", "", String(day.holdout), "", "", "", "", "", ""] + context)
        }
        return rows
    }

    /// Users to the lift's bounds: numbers the panel computed, written as numbers.
    static let numericColumns: Set<Int> = Set(2...9)

    static func rate(_ value: Double?) -> String { value.map { String(format: "%.6f", $0) } ?? "" }
    static func number(_ value: Double?) -> String { value.map { String(format: "%.6f", $0) } ?? "" }
}
