import AdminDomain
import Logging
import ServiceLifecycle

/// Automated campaigns: their rows are campaigns' (kind 'journey'), sent by the campaigns'
/// dispatcher; this area adds their pages, dry runs and reports, and the runner that enters
/// users and judges goals in the background.
public struct JourneysArea: Sendable {
    public let journeys: Journeys
    let dryRuns: JourneyDryRuns
    let reports: JourneyReports
    let templates: MessageTemplates
    public let services: [any Service]

    init(
        database: PanelDatabase, configuration: PanelConfiguration, logger: Logger, health: ServiceHealth,
        campaigns: Campaigns,
        templates: MessageTemplates, work: BackgroundWork
    ) {
        let journeys = Journeys(campaigns: campaigns)
        self.journeys = journeys
        self.templates = templates
        dryRuns = JourneyDryRuns(
            audience: journeys.audience, defaultTimeZone: journeys.defaultTimeZone, database: database, work: work)
        reports = JourneyReports(database: database)
        let runner = JourneyRunner(journeys: journeys)
        // Entries come from the backend's commits (a signup, an event) or from the clock (a
        // subscription nearing its end, a user going quiet): with no commit and no journey
        // changed here, every five minutes is enough.
        let changed = ChangeGate(
            watch: database.watch, changes: campaigns.changes,
            atLeastEvery: max(configuration.journeyInterval, .seconds(300)))
        services = [
            PeriodicJob(
                name: "journeys", every: configuration.journeyInterval, health: health, logger: logger,
                runOnlyIf: { await changed.shouldRun() },
                work: {
                    let tick = try await runner.tick()
                    JourneyMetrics().record(tick)
                    if tick.outcome.entered > 0 || tick.expired > 0 {
                        logger.info(
                            "journeys evaluated",
                            metadata: [
                                "journeys": "\(tick.journeys)", "entered": "\(tick.outcome.entered)",
                                "deliveries": "\(tick.outcome.deliveries)",
                                "expired": "\(tick.expired)", "goals_judged": "\(tick.judged)",
                            ])
                    }
                })
        ]
    }

    func addRoutes(to staffRoutes: inout StaffRoutes, auditLog: AuditLog) {
        JourneysController(
            source: .init(journeys: journeys, dryRuns: dryRuns, reports: reports), templates: templates.library,
            templateProblem: templates.problem, auditLog: auditLog
        ).addRoutes(to: &staffRoutes)
    }
}
