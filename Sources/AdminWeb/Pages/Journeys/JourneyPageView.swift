import AdminDomain
import HTMLRender

/// A journey: its definition in words, its status and buttons, who would enter in the next
/// 24 hours (drafts and active journeys) and what it did, per day and in total.
struct JourneyPageView: HTMLComponent {
    let model: JourneyPageModel
    let viewer: Viewer

    var content: HTMLNode {
        let journey = model.journey
        // Until the dry run is done the page refreshes itself, with or without JavaScript.
        let extras: [HTMLNode] = model.dryRunPending ? [meta(Attribute("http-equiv", "refresh"), .content("2"))] : []
        return PageLayout(
            pageTitle: "Journey #\(journey.id)", viewer: viewer, activeSection: .journeys, headExtras: extras
        ) {
            section(.class("panel")) {
                h1 {
                    "Journey #\(journey.id): "
                    UserText(text: journey.displayName, clampAfter: .max)
                }
                p {
                    JourneyStatusBadge(journey: journey, onPage: true)
                    " · created by "
                        + (journey.campaign.createdBy
                            ?? "no staff account (the command line, the demo, or one since removed)") + " at "
                    span(.class("nowrap")) { journey.campaign.createdAt.text + " UTC" }
                }
                if let notice = model.notice { p(.class("notice"), .role("status")) { notice.sentence } }
                for problem in model.problems { p(.class("notice error"), .role("alert")) { problem } }
                definition
                actions
            }
            if let state = model.dryRun { dryRunSection(state) }
            if let timing = model.timing { SendHoursSection(summary: timing, kind: "journey") }
            if let cost = model.cost { PushCostView(cost: cost, kind: "journey", window: model.consentWindow) }
            if let report = model.report { JourneyReportSection(journey: journey, report: report) }
        }.content
    }

    private var definition: HTMLNode {
        let journey = model.journey
        let campaign = journey.campaign
        let experiment = campaign.experiment
        return dl(.class("facts")) {
            dt { "Enters" }
            dd {
                journey.rules.map { "A user who " + $0.trigger.sentence }
                    ?? "rules this version of the panel cannot read"
            }
            dt { "Conditions" }
            dd { campaign.segment.map(SegmentWords.sentence) ?? "cannot be read" }
            CampaignSummary.message(campaign)
            CampaignSummary.variants(experiment, withTemplates: false)
            dt { "Opens" }
            dd { campaign.deepLink ?? "the app's home screen" }
            dt { "Sends" }
            dd { journey.rules.map { Self.sendAt($0.sendAt) } ?? "?" }
            dt { "Timing" }
            dd(.id("journey-timing")) { Self.timing(campaign.timing) }
            dt { "Re-entry" }
            dd {
                journey.rules.map {
                    $0.reentryDays.map { "a new occurrence enters again after \(Format.count($0, "day", "days"))" }
                        ?? "never: a user enters once"
                } ?? "?"
            }
            dt { "Daily limit" }
            dd {
                journey.rules.map {
                    $0.dailyLimit.map { "at most \(Format.count($0, "entry", "entries")) a day (UTC)" } ?? "none"
                } ?? "?"
            }
            dt { "Holdout" }
            dd {
                experiment.holdoutPercent == 0
                    ? "none" : "\(experiment.holdoutPercent)% of the entries get nothing, drawn per entry"
            }
            dt { "Goal" }
            dd {
                experiment.goal.map {
                    "\($0.label), within \(Format.count(experiment.goalDays, "day", "days")) of entering"
                } ?? "none (opens only)"
            }
            dt { "Entered so far" }
            dd { Format.grouped(journey.entered) }
        }
    }

    static func timing(_ timing: CampaignTiming?) -> String {
        switch timing {
        case nil: "unknown timing: this version of the panel cannot read it"
        case .asScheduled: "as the rule above says"
        case .usualHour(let percent):
            "each push at the user's usual hour within 24 hours of entering instead of the time above; a control share "
                + "of \(percent)% keeps the time above"
        }
    }

    static func sendAt(_ rule: JourneySendAt) -> String {
        switch rule {
        case .dailyTime: "at the user's own reminder time, after their quiet hours, within 24 hours of entering"
        case .window(let from, let to):
            "between \(from):00 and \(to):00 local time, after their quiet hours, within 24 hours of entering"
        }
    }

    @HTMLBuilder private var actions: [HTMLNode] {
        let journey = model.journey
        if !model.actions.isEmpty || journey.status != .draft {
            div(.class("actions")) {
                if model.mayWrite, journey.status == .draft {
                    a(.href(SiteURL.journeyEdit(id: journey.id).href), .class("button")) { "Edit the draft" }
                }
                for action in model.actions {
                    HTMLRender.form(
                        .method(.post), .action(SiteURL.journeyAction(id: journey.id, action).href), .class("inline")
                    ) {
                        CSRFField(token: viewer.csrfToken)
                        element("button", Self.buttonAttributes(action)) { action.label }
                    }
                }
                if journey.status != .draft {
                    a(.href(SiteURL.journeyReport(id: journey.id).href)) { "The report as CSV" }
                }
            }
        }
    }

    /// The way forward stands out; what cannot be undone is marked.
    static func buttonAttributes(_ action: JourneyAction) -> [Attribute] {
        switch action {
        case .activate, .resume: [.type("submit"), .class("primary")]
        case .end, .delete: [.type("submit"), .class("danger")]
        case .pause: [.type("submit")]
        }
    }

    private func dryRunSection(_ state: JourneyDryRuns.State) -> HTMLNode {
        section(.class("panel"), .id("dry-run")) {
            h2 { "Dry run: who would enter in the next 24 hours" }
            switch state {
            case .queued(let ahead):
                p(.role("status")) {
                    ahead == 0 ? "Waiting to count: this journey is next." : "Waiting to count: \(ahead) go first."
                }
                p(.class("muted")) { "Dry runs are made one at a time in the background. This page refreshes itself." }
            case .counting:
                p(.role("status")) { "Counting who would enter…" }
                p(.class("muted")) { "This page refreshes itself until the count is done." }
            case .ready(let run, let at):
                p(.class("muted")) { "Counted at \(SQLiteTime.string(at)) UTC, as if nobody did anything meanwhile." }
                DataTable(
                    caption: "Users whose trigger falls in the next 24 hours",
                    columns: [.init("Users"), .init("Count", numeric: true)],
                    rows: Self.dryRunRows(run).map { TableRow([TableCell($0.0), TableCell(Format.grouped($0.1))]) })
                if let sentence = Self.holdoutSentence(run, percent: model.journey.campaign.experiment.holdoutPercent) {
                    p(.class("muted")) { sentence }
                }
                if !run.samples.isEmpty {
                    SampleRecipientsTable(
                        caption: "Some of those who would be sent the push (lowest user ids)", samples: run.samples,
                        viewer: viewer)
                }
            case .failed(let sentence):
                p(.class("notice error"), .role("alert")) { sentence }
            }
        }
    }

    /// What the held-out count means: each entry is drawn on its own, so a small count may sit
    /// far from the percentage (issue 46: 4 of 13 held out under 10% read as a fault).
    static func holdoutSentence(_ run: JourneyDryRun, percent: Int) -> String? {
        let drawn = run.heldOut + run.toSend
        guard percent > 0, drawn > 0 else { return nil }
        let expected = Double(drawn) * Double(percent) / 100
        return "The holdout is drawn for each entry on its own, with a \(percent)% chance: of these "
            + "\(Format.grouped(drawn)) about \(String(format: "%.1f", expected)) are expected to be held out, and "
            + "\(Format.grouped(run.heldOut)) \(run.heldOut == 1 ? "was" : "were") drawn. Over a few entries the "
            + "share held out varies widely; it nears \(percent)% as entries add up."
    }

    /// The dry run's lines, in the order an entry is classified.
    static func dryRunRows(_ run: JourneyDryRun) -> [(String, Int)] {
        var rows: [(String, Int)] = [
            ("Cross the trigger", run.crossing), ("Already entered, or re-entry not yet allowed", run.alreadyEntered),
            ("Outside the conditions", run.outsideConditions),
        ]
        for (reason, count) in run.exclusions.sorted(by: { $0.key < $1.key }) {
            // As the report counts them: they enter, and exit at once with the reason.
            rows.append(("Would enter and exit at once: " + JourneyExit.label(of: reason), count))
        }
        rows += [
            ("Held out (get nothing, to measure the lift)", run.heldOut), ("Would be sent the push", run.toSend),
            ("Their devices", run.devices),
        ]
        return rows
    }
}
