import AdminDomain
import CampaignDispatch
import Foundation
import Logging
import ServiceLifecycle

/// Campaigns: the composer and its previews, the launch, progress and impact pages, test
/// sends and test users; in the background the push clients, the dispatcher that sends every
/// campaign's and journey's deliveries, the receipt poller, the impact refresher and the
/// users' usual hours that timed sends use.
public struct CampaignsArea: PanelArea {
    public let campaigns: Campaigns
    let previews: AudiencePreviews
    /// Holdout, goal and variant reports of launched campaigns, kept up to date in the background.
    public let impact: CampaignImpactTracker
    let progress: CampaignProgressCache
    let testSend: CampaignTestSend
    /// The live-progress streams open now, at most a few per session.
    let liveStreams = LiveStreams()
    /// Each variant's latest test send, per session and draft.
    let testSendResults = TestSendResults()
    /// The templates, and the sign-in's sessions (the live progress stream ends when its
    /// viewer's does) and audit log.
    let core: PanelCore
    public let services: [any Service]

    init(core: PanelCore) {
        let (database, configuration, logger) = (core.database, core.configuration, core.logger)
        let health = core.site.health
        let (templates, work) = (core.templates, core.site.backgroundWork)
        let audience = Audience(frequencyCap: configuration.frequencyCap, providers: configuration.push.configured)
        let campaigns = Campaigns(
            database: database, audience: audience, defaultTimeZone: configuration.defaultTimeZone)
        let impact = CampaignImpactTracker(campaigns: campaigns)
        self.campaigns = campaigns
        self.impact = impact
        self.core = core
        previews = AudiencePreviews(
            audience: audience, defaultTimeZone: configuration.defaultTimeZone, database: database,
            templates: templates.library, recountWait: configuration.recountWait, work: work)
        progress = CampaignProgressCache(campaigns: campaigns, work: work)
        testSend = CampaignTestSend(
            database: database, push: configuration.push, templates: templates.library,
            testUsers: TestUsers(
                database: database, audience: audience, domains: configuration.testUserDomains,
                defaultTimeZone: configuration.defaultTimeZone))
        // The dispatcher and the campaign use cases publish on the same feed, `campaigns.changes`.
        let receipts = ReceiptPoller(database: database, changes: campaigns.changes)
        // One look at the file every two seconds for the dispatcher and both jobs below: an
        // idle panel reads nothing else on their behalf.
        let watch = database.watch
        let receiptsChanged = ChangeGate(watch: watch)
        let impactChanged = ChangeGate(watch: watch, changes: campaigns.changes)
        let usualHours = UsualHourRefresh(database: database, defaultTimeZone: configuration.defaultTimeZone)
        services = [
            PushClientsService(push: configuration.push),
            CampaignDispatcher(
                outbox: DeliveryOutbox(
                    database: database, audience: audience, defaultTimeZone: configuration.defaultTimeZone),
                campaigns: campaigns, push: configuration.push, templates: templates.library, watch: watch,
                logger: logger),
            // Receipts are the backend's rows: only another connection's commit can bring one.
            PeriodicJob(
                name: "receipt-poller", every: configuration.receiptPollInterval, health: health, logger: logger,
                runOnlyIf: { await receiptsChanged.shouldRun() },
                work: { try await receipts.poll() }
            ),
            // Also chooses a winner test's winner when its wait has passed: run at least once a
            // minute for that, else only after the backend's commits (goal events) or this
            // process's changes to deliveries.
            PeriodicJob(
                name: "impact-refresher", every: configuration.impactRefreshInterval, health: health, logger: logger,
                runOnlyIf: { await impactChanged.shouldRun() },
                work: { try await impact.refresh() }
            ),
            // What each push cost: consent read again 72 hours after it went out. Every few
            // minutes is enough for a figure in hours; a restart reads what came due meanwhile.
            PeriodicJob(
                name: "consent-readings", every: configuration.consentReadInterval, health: health, logger: logger
            ) {
                let figures = try await ConsentReadings(database: database, after: configuration.consentWindow)
                    .run(now: Date())
                if figures.deliveriesRead + figures.membersRead > 0 {
                    logger.info(
                        "consent read again",
                        metadata: [
                            "deliveries": "\(figures.deliveriesRead)", "members": "\(figures.membersRead)",
                        ])
                }
            },
            // The first run builds every user's hours, a chunk at a time, however long that takes;
            // the next interval is counted from its end.
            PeriodicJob(name: "usual-hours", every: configuration.usualHourInterval, health: health, logger: logger) {
                let figures = try await usualHours.run(now: Date())
                UsualHourMetrics().record(figures)
                logger.info(
                    "usual hours refreshed",
                    metadata: [
                        "built": "\(figures.built)", "events_read": "\(figures.eventsRead)",
                        "updated": "\(figures.updated)",
                        "aged": "\(figures.aged)", "peer_groups": "\(figures.peerGroups)",
                        "building": "\(figures.building)",
                    ])
            },
        ]
    }

    func addRoutes(to staffRoutes: inout StaffRoutes) {
        CampaignsController(
            source: .init(
                campaigns: campaigns, previews: previews, progress: progress, impact: impact,
                testUsers: testSend.testUsers,
                templates: core.templates.library, database: core.database,
                consentWindow: core.configuration.consentWindow),
            templateProblem: core.templates.problem, testSend: testSend, sessions: core.auth.signIn.sessions,
            auditLog: core.auth.signIn.audit, eventStreamLength: core.configuration.eventStreamLength,
            liveStreams: liveStreams, testSendResults: testSendResults
        ).addRoutes(to: &staffRoutes)
        GlobalControlController(control: GlobalControl(database: core.database)).addRoutes(to: &staffRoutes)
    }
}
