import PushTemplates
import Testing

@testable import AdminDomain
@testable import AdminWeb
@testable import CampaignDispatch

/// Marketing's pages: the list, a campaign before and after its launch, the questions
/// before a cancel, a delete or a send, the composer and the test users, as `.html`
/// snapshots under `__Snapshots__/SnapshotsCampaigns/`.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsCampaigns {
    typealias Parts = SnapshotsCampaignParts
    static let viewer = Parts.viewer

    static let testUsers = [
        TestUsers.Entry(
            userID: 42, email: Hostile.email, addedBy: "o'brien&sons@example.com",
            addedAt: PanelTime(text: "2026-11-01 10:00:00")!,
            reachableDevices: 2),
        TestUsers.Entry(
            userID: 43, email: "\(Hostile.rightToLeft)@example.com", addedBy: nil,
            addedAt: PanelTime(text: "2026-11-02 10:00:00")!,
            reachableDevices: 1),
    ]

    @Test func campaignListView() {
        // Due in 2099: scheduled whenever the test runs; confirmed 79 devices, 315 frozen.
        var scheduled = Parts.campaign(
            22, .known(.sending), name: "Due later", schedule: .at(SQLiteTime.date("2099-01-01 09:00:00")!),
            launchedAt: "2026-11-22 09:00:00", totals: .init(audience: 315, accepted: 0, received: 0, opened: 0))
        scheduled.confirmed = .init(devices: 79, heldOutUsers: 8)
        let entries = [
            scheduled,
            Parts.campaign(21, .known(.draft)),
            Parts.campaign(
                20, .known(.sending), name: nil, launchedAt: "2026-11-20 09:00:00",
                totals: .init(audience: 12_345, accepted: 8_000, received: 7_000, opened: 1_234)),
            Parts.campaign(19, .known(.paused), name: "", detail: "Stopped: \(Hostile.script)"),
            Parts.campaign(18, .unknown("exploded<b>"), name: Hostile.long),
        ]
        assertPageSnapshot(
            of: CampaignListView(
                model: CampaignListModel(
                    entries: entries, previousBefore: 23, nextAfter: 18, status: nil,
                    offset: 50, total: 105, notice: "Draft #22 deleted."), viewer: Self.viewer),
            "allWithOlderPage")
        assertPageSnapshot(
            of: CampaignListView(
                model: CampaignListModel(entries: [], nextAfter: nil, status: .paused), viewer: Self.viewer),
            "noneFiltered")
    }

    @Test func campaignPageView() {
        var draft = CampaignPageModel(
            campaign: Parts.campaign(21, .known(.draft), experiment: Parts.experiment),
            notice: CampaignNotice(.created), preview: .ready(Parts.preview, at: Parts.now),
            defaultTimeZone: "Europe/Berlin")
        draft.phone = .init(
            variant: .c, variants: [.a, .b, .c], title: "Hi \(Hostile.name)",
            body: "You have 3 items & <more>\nsee them", recipient: Parts.preview.samples[0],
            language: "en", platform: .ios, samples: Parts.preview.samples, languages: ["en", "pt"],
            fallbacks: ["expiring_count"])
        draft.testUsers = Self.testUsers
        draft.testedUser = 43
        draft.testedVariant = .b
        draft.testLines = [
            CampaignTestSend.Line(
                deviceID: 1, platform: "ios", maskedToken: "…a1b2c3", outcome: "accepted",
                title: "Hi <b>", body: Hostile.script)
        ]
        assertPageSnapshot(of: CampaignPageView(model: draft, viewer: Self.viewer), "draftReady")

        var counting = CampaignPageModel(
            campaign: Parts.campaign(22, .known(.draft), name: nil, schedule: .now), preview: .counting(progress: 0.42),
            defaultTimeZone: "UTC")
        counting.problems = ["There is no sample “<b>”: choose one the preview shows."]
        assertPageSnapshot(of: CampaignPageView(model: counting, viewer: Self.viewer), "draftCountingWithProblem")

        let pausedCampaign = Parts.campaign(
            20, .known(.paused), detail: "Paused by an admin & \(Hostile.script)", launchedAt: "2026-11-23 09:00:00",
            totals: .init(audience: 12_345, accepted: 8_000, received: 7_000, opened: 1_234),
            experiment: Parts.experiment)
        var paused = CampaignPageModel(
            campaign: pausedCampaign, notice: CampaignNotice(.paused, count: 8_043), progress: Parts.progress,
            defaultTimeZone: "UTC")
        paused.testUsers = Self.testUsers
        assertPageSnapshot(of: CampaignPageView(model: paused, viewer: Self.viewer), "pausedWithWinnerToChoose")

        let winner = CampaignRecord.Winner(
            variant: .known(.a), at: PanelTime(text: "2026-11-20 15:00:00")!, detail: "A converted best")
        let finishedCampaign = Parts.campaign(
            18, .known(.finished), schedule: .now, launchedAt: "2026-11-20 09:00:00",
            finishedAt: "2026-11-21 09:00:00",
            totals: .init(audience: 9_000, accepted: 8_000, received: 7_000, opened: 1_200),
            experiment: Parts.experiment, winner: winner)
        let finished = CampaignPageModel(
            campaign: finishedCampaign, progress: Parts.progress, impact: Parts.impact, defaultTimeZone: "UTC")
        assertPageSnapshot(of: CampaignPageView(model: finished, viewer: Self.viewer), "finishedWithReport")

        var timedCampaign = finishedCampaign
        timedCampaign.timing = .usualHour(controlPercent: 10)
        var timedImpact = Parts.impact
        timedImpact.timing = Parts.timingComparison
        var timed = CampaignPageModel(
            campaign: timedCampaign, progress: Parts.progress, impact: timedImpact, defaultTimeZone: "UTC")
        timed.timing = Parts.sendHours
        assertPageSnapshot(of: CampaignPageView(model: timed, viewer: Self.viewer), "usualHourWithSendHours")
    }

    @Test func campaignAskView() {
        assertPageSnapshot(
            of: CampaignAskView(
                campaign: Parts.campaign(20, .known(.sending)), action: .cancel, progress: Parts.progress,
                viewer: Self.viewer), "cancelSending")
        assertPageSnapshot(
            of: CampaignAskView(
                campaign: Parts.campaign(21, .known(.draft), name: Hostile.long), action: .delete, progress: nil,
                viewer: Self.viewer), "deleteDraft")
    }

    @Test func campaignConfirmView() {
        let similar = [
            Parts.campaign(17, .known(.finished), launchedAt: "2026-11-19 09:00:00"),
            Parts.campaign(16, .known(.sending), launchedAt: "2026-11-18 09:00:00"),
        ]
        var mustType = CampaignConfirmModel(
            campaign: Parts.campaign(21, .known(.draft), experiment: Parts.experiment), preview: Parts.preview,
            countedAt: Parts.now, similar: similar, defaultTimeZone: "Europe/Berlin")
        mustType.typed = "12,344 <b>"
        mustType.problem = "The number typed is not the number of devices: type 11,111 to send."
        mustType.notice =
            "Counted again just now: a campaign was launched at 2026-11-23 09:59:30 UTC, after this audience was "
            + "counted."
        assertPageSnapshot(of: CampaignConfirmView(model: mustType, viewer: Self.viewer), "mustTypeWithWarnings")
        // A planned time in the past: it has passed whenever the test runs.
        let planned = CampaignConfirmModel(
            campaign: Parts.campaign(22, .known(.draft), schedule: .at(SQLiteTime.date("2026-11-01 08:00:00")!)),
            preview: Parts.preview, countedAt: Parts.now, similar: [], defaultTimeZone: "UTC")
        assertPageSnapshot(of: CampaignConfirmView(model: planned, viewer: Self.viewer), "plannedTimePassed")
        let nobody = CampaignConfirmModel(
            campaign: Parts.campaign(23, .known(.draft), schedule: .now), preview: AudiencePreview(),
            countedAt: Parts.now, similar: [], defaultTimeZone: "UTC")
        assertPageSnapshot(of: CampaignConfirmView(model: nobody, viewer: Self.viewer), "nobodyReachable")
        var timedCampaign = Parts.campaign(24, .known(.draft), schedule: .now)
        timedCampaign.timing = .usualHour(controlPercent: 15)
        let timed = CampaignConfirmModel(
            campaign: timedCampaign, preview: Parts.preview, countedAt: Parts.now, similar: [], defaultTimeZone: "UTC")
        assertPageSnapshot(of: CampaignConfirmView(model: timed, viewer: Self.viewer), "usualHour")
    }

    @Test func composerView() throws {
        let library = PushTemplateLibrary(templates: [
            "expiring-soon": [
                "en": try PushTemplate(
                    name: "expiring-soon", language: "en",
                    text: "title: Hi {{display_name}} <b>\nbody: {{expiring_count}} items & \"more\""),
                "pt": try PushTemplate(
                    name: "expiring-soon", language: "pt",
                    text: "title: Olá {{display_name}}\nbody: {{expiring_count}} itens"),
            ]
        ])
        let typed = ComposerForm(fields: [
            "name": Hostile.name, "title": Hostile.script,
            "body": "Line one\n\(Hostile.rightToLeft)\n</textarea><b>out</b>", "ttl": "3600",
            "bucket": "idle", "near_limit": "1", "food_days": "<3>", "when": "local", "local_time": "25:00",
            "template_b": "expiring-soon",
            "title_b": "B \"quoted\"", "holdout": "10",
        ])
        // Refused as the form reads it: each sentence at its field and linked from the top.
        let refused = typed.read(templates: library, now: Parts.now)
        assertPageSnapshot(
            of: ComposerView(
                model: ComposerModel(
                    form: typed, problems: refused.problems, problemFields: refused.problemFields,
                    library: library, templateProblem: nil), viewer: Self.viewer),
            "newWithProblems")
        assertPageSnapshot(
            of: ComposerView(
                model: ComposerModel(
                    library: PushTemplateLibrary(),
                    templateProblem: "No template could be read: \(Hostile.script)", editing: 21),
                viewer: Self.viewer),
            "editingWithoutTemplates")
        // Usual hour with a local time and a bad share: the sentences beside the timing fields too.
        let timed = ComposerForm(fields: [
            "title": "t", "body": "b", "ttl": "86400", "when": "local", "local_time": "09:00",
            "timing": "usual_hour", "timing_control_percent": "<77>",
        ])
        let timedRead = timed.read(templates: library, now: Parts.now)
        assertPageSnapshot(
            of: ComposerView(
                model: ComposerModel(
                    form: timed, problems: timedRead.problems, problemFields: timedRead.problemFields,
                    library: library, templateProblem: nil), viewer: Self.viewer),
            "usualHourRefused")
    }

    @Test func globalControlView() throws {
        let admin = Viewer(
            identity: StaffIdentity(adminID: 1, email: "admin@example.com", role: .admin, hasTwoFactor: true),
            csrfToken: "csrf-token-1")
        let history = GlobalControl.Settings(history: [
            .init(percent: 5, tookEffectAt: PanelTime(secondsSinceEpoch: 1_795_000_000), by: "cli"),
            .init(percent: 10, tookEffectAt: PanelTime(secondsSinceEpoch: 1_795_086_400), by: Hostile.email),
            .init(percent: 8, tookEffectAt: PanelTime(secondsSinceEpoch: 1_795_172_800), by: nil),
        ])
        assertPageSnapshot(
            of: GlobalControlView(settings: history, changed: true, problem: nil, typed: nil, viewer: admin),
            "changed")
        assertPageSnapshot(
            of: GlobalControlView(
                settings: GlobalControl.Settings(history: []), changed: false,
                problem: "the share must be a whole percent from 0 to 20, such as 5",
                typed: Hostile.email, viewer: admin),
            "refusedNeverSet")
    }

    @Test func testUsersView() throws {
        let domains = try TestUserDomains(["corp.example.com", "example.org"])
        assertPageSnapshot(
            of: TestUsersView(
                entries: Self.testUsers, domains: domains, notice: .added, problem: nil, typed: "",
                viewer: Self.viewer),
            "added")
        assertPageSnapshot(
            of: TestUsersView(
                entries: [], domains: domains, notice: nil, problem: "No app user has the email “\(Hostile.email)”.",
                typed: Hostile.email, viewer: Self.viewer),
            "refusedAndEmpty")
        // Marketing without a domain gets no form; an admin is told they may add anyone.
        assertPageSnapshot(
            of: TestUsersView(
                entries: Self.testUsers, domains: .none, notice: nil, problem: nil, typed: "", viewer: Self.viewer),
            "marketingWithoutDomains")
        let admin = Viewer(
            identity: StaffIdentity(adminID: 1, email: "admin@example.com", role: .admin, hasTwoFactor: true),
            csrfToken: "csrf-token-1")
        assertPageSnapshot(
            of: TestUsersView(
                entries: Self.testUsers, domains: .none, notice: nil, problem: nil, typed: "", viewer: admin),
            "adminWithoutDomains")
    }
}
