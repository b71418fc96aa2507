import Foundation
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The parts campaign pages are made of: the audience as counted, the live counts and the
/// impact report, as `.html` snapshots under `__Snapshots__/SnapshotsCampaignParts/`; and the
/// hand-made campaigns, previews, counts and reports the campaign snapshots share.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsCampaignParts {
    static let viewer = Viewer(
        identity: StaffIdentity(adminID: 5, email: "marketing@example.com", role: .marketing, hasTwoFactor: true),
        csrfToken: "csrf-token-5")
    static let now = SQLiteTime.date("2026-11-23 10:00:00")!

    static func campaign(
        _ id: Int64, _ status: Stored<CampaignStatus>, name: String? = Hostile.name, detail: String? = nil,
        schedule: CampaignSchedule = .localTime(LocalTime("09:00")!), launchedAt: String? = nil,
        finishedAt: String? = nil,
        totals: CampaignRecord.Totals = .init(audience: 0, accepted: 0, received: 0, opened: 0),
        experiment: CampaignExperiment = CampaignExperiment(), winner: CampaignRecord.Winner? = nil
    ) -> CampaignRecord {
        CampaignRecord(
            id: id, name: name, title: "Hi {{display_name}} \(Hostile.script)",
            body: "Line one & \"two\"\n\(Hostile.rightToLeft) 🍎",
            deepLink: "expirytracker://items?filter=<soon>&x=1", timeToLive: 86_400,
            segment: CampaignSegment(
                bucket: .idle, plan: .free, nearItemLimit: true, foodExpiringWithinDays: 3, platform: .ios,
                signedUpFrom: Day("2025-01-01")),
            template: nil, perSecond: 1, status: status, statusDetail: detail, createdBy: "o'brien&sons@example.com",
            createdAt: PanelTime(text: "2026-11-2\(id % 10) 08:00:00")!,
            launchedAt: launchedAt.flatMap(PanelTime.init(text:)),
            finishedAt: finishedAt.flatMap(PanelTime.init(text:)),
            schedule: schedule,
            totals: totals, experiment: experiment, winner: winner)
    }

    /// Variants B and C sent to a fifth first, a holdout, and a goal.
    static let experiment = CampaignExperiment(
        holdoutPercent: 10, goal: .itemAdded, goalDays: 3,
        variants: [
            VariantMessage(variant: .b, title: "B: \(Hostile.script)", body: "B body\nwith <lines>"),
            VariantMessage(variant: .c, title: "C", body: "C body", template: "expiring-soon"),
        ],
        testPercent: 20, winnerWaitHours: 6)

    static var preview: AudiencePreview {
        var preview = AudiencePreview()
        preview.counts.reachableUsers = 9_876
        preview.counts.reachableDevices = 12_345
        preview.counts.devicesByGroup = [
            .init(platform: "ios", provider: "apns"): 10_000, .init(platform: "android", provider: "fcm"): 2_344,
            .init(platform: "<web>", provider: "fcm"): 1,
        ]
        preview.counts.excludedUsers = [.accountClosed: 12, .noDevice: 3_000, .frequencyCap: 1]
        preview.counts.excludedDevices = [
            .deadToken: 40, .noPermission: 1, .frequencyCap: 2, .providerNotConfigured: 7_000,
        ]
        preview.missingProviders = Audience(providers: [.fcm]).missingProvidersSentence
        preview.inQuietHours = 1
        preview.invalidTimeZones = 25
        preview.malformedQuietHours = 0
        preview.usersWithoutSettings = 7
        preview.heldOutUsers = 988
        preview.heldOutDevices = 1_234
        preview.fallbackUsers = [.name: 120, .items: 9_000]
        preview.placeholdersUsed = ["display_name", "expiring_count"]
        preview.samples = [
            SampleRecipient(userID: 42, platform: "ios", locale: "ar-EG", timeZone: "Mars/<Olympus>"),
            SampleRecipient(userID: 43, platform: "android", locale: "", timeZone: Hostile.rightToLeft),
        ]
        preview.elapsed = .milliseconds(1_234)
        return preview
    }

    static var progress: CampaignProgress {
        var progress = CampaignProgress()
        progress.status = "sending"
        progress.total = 12_345
        progress.accepted = 8_000
        progress.unknown = 3
        progress.sending = 40
        progress.queued = 1_000
        progress.waiting = 2_000
        progress.heldForWinner = 1_500
        progress.cancelled = 0
        progress.capped = 2
        progress.failed = 1_200
        progress.dead = 100
        progress.received = 7_000
        progress.opened = 1_234
        progress.ignoredReceipts = 5
        progress.failureReasons = [
            .init(reason: "QUOTA_EXCEEDED <fcm>", count: 1_000), .init(reason: Hostile.script, count: 200),
        ]
        progress.excluded = 12
        progress.exclusionReasons = [
            .init(reason: "no longer in the audience when due: no consent to campaign pushes", count: 10),
            .init(reason: Hostile.script, count: 2),
        ]
        return progress
    }

    /// A report with a goal, variants, the rest and platforms, two days after a launch.
    static var impact: CampaignImpact {
        let start = SQLiteTime.date("2026-11-20 09:00:00")!
        var impact = CampaignImpact(
            campaignID: 18, asOf: now, goal: .itemAdded, windowStart: start,
            windowEnd: start.addingTimeInterval(3 * 86_400))
        impact.recipients = .init(users: 8_000, converted: 960, opened: 1_200)
        impact.holdout = .init(users: 1_000, converted: 100, opened: 0)
        impact.lift = LiftInterval(converted: 960, of: 8_000, against: 100, of: 1_000)
        impact.variants = [
            .init(
                variant: .a, group: .init(users: 600, converted: 80, opened: 90),
                lift: LiftInterval(converted: 80, of: 600, against: 100, of: 1_000)),
            .init(variant: .b, group: .init(users: 600, converted: 50, opened: 60), lift: nil),
        ]
        impact.rest = .init(users: 6_800, converted: 830, opened: 1_050)
        impact.platforms = [
            .init(
                platform: "ios", recipients: .init(users: 6_000, converted: 700, opened: 900),
                holdout: .init(users: 700, converted: 70),
                lift: LiftInterval(converted: 700, of: 6_000, against: 70, of: 700)),
            .init(platform: "<web>", recipients: .init(users: 1, converted: 0, opened: 0), holdout: .init(), lift: nil),
        ]
        impact.days = [
            .init(index: 0, recipients: 500, holdout: 40), .init(index: 1, recipients: 300, holdout: 40),
            .init(index: 2, recipients: 160, holdout: 20),
        ]
        impact.unreadableTimes = 2
        return impact
    }

    /// A usual-hour launch: most at their own hour, some from peers and everyone, some moved.
    static var sendHours: TimingSummary {
        var summary = TimingSummary()
        summary.usualPerHour[8] = 120
        summary.usualPerHour[12] = 300
        summary.usualPerHour[19] = 400
        summary.usualPerHour[20] = 127
        summary.controlPerHour[9] = 105
        summary.usual = 947
        summary.control = 105
        summary.byBasis = [.own: 812, .peers: 95, .everyone: 40]
        summary.moved = [.quiet: 120, .deadline: 3]
        return summary
    }

    static var timingComparison: TimingComparison {
        TimingComparison(
            usual: .init(users: 947, openJudged: 800, openedInDay: 190, judged: 947, converted: 120),
            control: .init(users: 105, openJudged: 105, openedInDay: 14, judged: 105, converted: 9))
    }

    @Test func audiencePreviewView() {
        assertPageSnapshot(
            of: AudiencePreviewView(preview: Self.preview, countedAt: "2026-11-23 09:59:00", viewer: Self.viewer),
            "counted")
    }

    /// Worked by hand: 30 of 990 recipients read (1,000 less 10 gone) is 3.0%, 2 of 200 in the
    /// holdout 1.0%; the difference is +2.0 points.
    @Test func pushCostView() {
        let cost = PushCost(
            recipients: .init(users: 1_000, marketingOff: 30, pushOff: 4, permissionOff: 1, gone: 10),
            holdout: .init(users: 200, marketingOff: 2, pushOff: 1),
            control: .init(users: 50, marketingOff: 0))
        assertPageSnapshot(of: PushCostView(cost: cost), "withinChanceOfTheHoldout")
        assertPageSnapshot(
            of: PushCostView(cost: PushCost(recipients: .init(users: 12, pushOff: 1)), kind: "journey"), "noBaseline")
        assertPageSnapshot(of: PushCostView(cost: PushCost()), "nothingReadYet")
        // 30 of 1,000 against 2 of 1,000: beyond chance, flagged.
        assertPageSnapshot(
            of: PushCostView(
                cost: PushCost(
                    recipients: .init(users: 1_000, marketingOff: 30), control: .init(users: 1_000, marketingOff: 2))),
            "flaggedAgainstTheControl")
        let page = PageSnapshots.page(PushCostView(cost: cost))
        #expect(page.contains("3.0% (30)") && page.contains("1.0% (2)") && page.contains("+2.0 ("))
    }

    @Test func campaignProgressView() {
        assertPageSnapshot(of: CampaignProgressView(progress: Self.progress), "sending")
        assertPageSnapshot(of: CampaignProgressView(progress: CampaignProgress()), "nothingYet")
    }

    @Test func campaignImpactView() {
        let winner = CampaignRecord.Winner(
            variant: .known(.a), at: PanelTime(text: "2026-11-20 15:00:00")!,
            detail: "A converted 13.3% & B 8.3% <after 6 hours>")
        let finished = Self.campaign(
            18, .known(.finished), launchedAt: "2026-11-20 09:00:00", finishedAt: "2026-11-21 09:00:00",
            totals: .init(audience: 9_000, accepted: 8_000, received: 7_000, opened: 1_200),
            experiment: Self.experiment, winner: winner)
        assertPageSnapshot(
            of: CampaignImpactView(campaign: finished, impact: Self.impact, viewer: Self.viewer),
            "goalVariantsAndWinner")
        let sending = Self.campaign(
            19, .known(.sending), schedule: .now, launchedAt: "2026-11-23 09:00:00", experiment: Self.experiment)
        var opensOnly = CampaignImpact(
            campaignID: 19, asOf: Self.now, goal: nil, windowStart: Self.now,
            windowEnd: Self.now.addingTimeInterval(86_400))
        opensOnly.recipients = .init(users: 10, opened: 3)
        opensOnly.platforms = [
            .init(platform: "android", recipients: .init(users: 10, opened: 3), holdout: .init(), lift: nil)
        ]
        assertPageSnapshot(
            of: CampaignImpactView(campaign: sending, impact: opensOnly, viewer: Self.viewer), "opensOnlyWinnerToChoose"
        )
        assertPageSnapshot(
            of: CampaignImpactView(campaign: sending, impact: nil, nobodyDrawn: true, viewer: Self.viewer),
            "nobodyDrawn")
        // The winner test still running: the headline is the test share's.
        var held = Self.impact
        held.restHeld = true
        held.recipients = .init(users: 1_200, converted: 130, opened: 150)
        held.lift = LiftInterval(converted: 130, of: 1_200, against: 100, of: 1_000)
        assertPageSnapshot(
            of: CampaignImpactView(campaign: sending, impact: held, viewer: Self.viewer), "restHeldTestShareOnly")
        // Sent at each user's usual hour: its table against the control beside the holdout's lift.
        var timed = Self.impact
        timed.timing = Self.timingComparison
        var usualHour = finished
        usualHour.timing = .usualHour(controlPercent: 10)
        assertPageSnapshot(
            of: CampaignImpactView(campaign: usualHour, impact: timed, viewer: Self.viewer), "usualHourAgainstControl")
        var noGoal = opensOnly
        noGoal.timing = TimingComparison(
            usual: .init(users: 9, openJudged: 9, openedInDay: 3), control: .init(users: 1, openJudged: 1))
        assertPageSnapshot(
            of: CampaignImpactView(campaign: sending, impact: noGoal, viewer: Self.viewer), "usualHourOpensOnly")
    }
}
