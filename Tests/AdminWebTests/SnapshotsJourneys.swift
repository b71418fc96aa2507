import PushTemplates
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Journeys' pages: the list, a journey (draft with its dry run, active with its report,
/// ended), and the form with refusals, as `.html` snapshots under `__Snapshots__/SnapshotsJourneys/`.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsJourneys {
    typealias Parts = SnapshotsCampaignParts
    static let viewer = Parts.viewer
    static let support = Viewer(
        identity: StaffIdentity(adminID: 4, email: "support@example.com", role: .support), csrfToken: "csrf-token-4")

    static func journey(
        _ id: Int64, _ status: CampaignStatus, rules: JourneyRules? = JourneyRules(trigger: .inactiveDays(30)),
        entered: Int = 0,
        experiment: CampaignExperiment = CampaignExperiment(holdoutPercent: 10, goal: .itemAdded, goalDays: 7)
    ) -> JourneyRecord {
        JourneyRecord(
            campaign: Parts.campaign(
                id, .known(status), schedule: .now,
                totals: .init(audience: 900, accepted: 850, received: 700, opened: 120),
                experiment: experiment),
            rules: rules, entered: entered, evaluatedUntil: nil)
    }

    static var report: JourneyReport {
        var report = JourneyReport()
        report.goal = .itemAdded
        report.goalDays = 7
        var today = JourneyReport.Figures()
        today.entered = 120
        today.heldOut = 12
        today.sent = 80
        today.waiting = 10
        today.exited = 15
        today.capped = 2
        today.limited = 0
        today.expired = 1
        today.received = 70
        today.opened = 20
        today.exits = ["no_longer_matches": 9, "goal_reached": 4, Hostile.script: 2]
        var yesterday = JourneyReport.Figures()
        yesterday.entered = 300
        yesterday.heldOut = 30
        yesterday.sent = 250
        yesterday.exited = 20
        yesterday.received = 240
        yesterday.opened = 60
        yesterday.exits = ["no_longer_matches": 20]
        yesterday.sentGroup = .init(judged: 270, converted: 81)
        yesterday.holdout = .init(judged: 30, converted: 4)
        report.days = [.init(day: "2026-11-23", figures: today), .init(day: "2026-11-22", figures: yesterday)]
        for day in report.days { report.total.add(day.figures) }
        return report
    }

    static var dryRun: JourneyDryRun {
        var run = JourneyDryRun()
        run.crossing = 140
        run.alreadyEntered = 5
        run.outsideConditions = 20
        run.exclusions = ["push_disabled": 7, "no_device": 3]
        run.heldOut = 10
        run.toSend = 95
        run.devices = 120
        run.samples = [
            SampleRecipient(userID: 7, platform: "ios", locale: "pt-BR", timeZone: "America/Sao_Paulo"),
            SampleRecipient(userID: 9, platform: Hostile.script, locale: Hostile.rightToLeft, timeZone: "UTC"),
        ]
        return run
    }

    @Test func journeyListView() {
        let entries = [
            JourneyListModel.Entry(journey: Self.journey(31, .sending, entered: 420), report: Self.report),
            JourneyListModel.Entry(
                journey: Self.journey(30, .draft, rules: JourneyRules(trigger: .firstDays(2, fewerItems: 3))),
                report: nil),
            JourneyListModel.Entry(
                journey: Self.journey(29, .paused, rules: JourneyRules(trigger: .subscriptionEnding(3)), entered: 12),
                report: nil),
            JourneyListModel.Entry(journey: Self.journey(28, .finished, rules: nil), report: nil),
        ]
        assertPageSnapshot(
            of: JourneyListView(
                model: JourneyListModel(entries: entries, notice: .deleted, mayWrite: true), viewer: Self.viewer),
            "allKinds")
        assertPageSnapshot(
            of: JourneyListView(model: JourneyListModel(entries: [], mayWrite: false), viewer: Self.support),
            "emptyForSupport")
    }

    @Test func journeyPageView() {
        var draft = JourneyPageModel(
            journey: Self.journey(
                30, .draft,
                rules: JourneyRules(
                    trigger: .firstDays(2, fewerItems: 3), sendAt: .window(from: 18, to: 21),
                    reentryDays: 30, dailyLimit: 500)),
            notice: .created, mayWrite: true)
        draft.dryRun = .ready(Self.dryRun, at: Parts.now)
        assertPageSnapshot(of: JourneyPageView(model: draft, viewer: Self.viewer), "draftWithDryRun")
        var counting = JourneyPageModel(
            journey: Self.journey(30, .draft), problems: ["Nothing changed: journey #30 is draft, and <b>no</b>."],
            mayWrite: true)
        counting.dryRun = .counting
        assertPageSnapshot(of: JourneyPageView(model: counting, viewer: Self.viewer), "draftCountingWithProblem")
        var active = JourneyPageModel(
            journey: Self.journey(31, .sending, entered: 420), notice: .activated, mayWrite: true)
        active.dryRun = .queued(ahead: 2)
        active.report = Self.report
        assertPageSnapshot(of: JourneyPageView(model: active, viewer: Self.viewer), "activeWithReport")
        var timedJourney = Self.journey(33, .sending, entered: 420)
        timedJourney.campaign.timing = .usualHour(controlPercent: 10)
        var timed = JourneyPageModel(journey: timedJourney, mayWrite: true)
        var timedReport = Self.report
        timedReport.total.timing = Parts.timingComparison
        timed.report = timedReport
        timed.timing = Parts.sendHours
        assertPageSnapshot(of: JourneyPageView(model: timed, viewer: Self.viewer), "activeUsualHour")
        var ended = JourneyPageModel(
            journey: Self.journey(32, .finished, experiment: CampaignExperiment()), mayWrite: false)
        ended.report = JourneyReport()
        assertPageSnapshot(of: JourneyPageView(model: ended, viewer: Self.support), "endedEmptyForSupport")
    }

    @Test func journeyFormView() throws {
        let library = PushTemplateLibrary(templates: [
            "expiring-soon": [
                "en": try PushTemplate(
                    name: "expiring-soon", language: "en",
                    text: "title: Hi {{display_name}} <b>\nbody: {{expiring_count}} items")
            ]
        ])
        let typed = JourneyForm(fields: [
            "name": Hostile.name, "trigger": "inactive_days", "trigger_days": "3", "title": Hostile.script,
            "body": "Line\n\(Hostile.rightToLeft)", "platform": "windows<b>", "send_at": "window", "window_from": "9",
            "window_to": "9", "holdout_percent": "70", "reentry_days": "0",
        ])
        // Refused as the form reads it: each sentence at its field and linked from the top.
        let refused = typed.read(templates: library)
        assertPageSnapshot(
            of: JourneyFormView(
                model: JourneyFormModel(
                    form: typed, problems: refused.problems, problemFields: refused.fields,
                    library: library, templateProblem: nil, editing: 30), viewer: Self.viewer),
            "editRefused")
        assertPageSnapshot(
            of: JourneyFormView(
                model: JourneyFormModel(
                    library: PushTemplateLibrary(), templateProblem: "No templates: <dir> is empty."),
                viewer: Self.viewer), "blank")
        let timedForm = JourneyForm(fields: [
            "trigger": "inactive_days", "trigger_days": "30", "title": "t", "body": "b", "send_at": "daily_time",
            "timing": "usual_hour", "timing_control_percent": "25",
        ])
        assertPageSnapshot(
            of: JourneyFormView(
                model: JourneyFormModel(form: timedForm, library: library, templateProblem: nil, editing: 33),
                viewer: Self.viewer), "usualHour")
    }
}
