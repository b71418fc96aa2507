import AdminDomain
import Logging
import ServiceLifecycle

/// Automated campaigns: their rows are campaigns' (kind 'journey'), sent by the campaigns'
/// dispatcher; this area adds their pages, dry runs and reports, and the runner that enters
/// users and judges goals in the background.
public struct JourneysArea: PanelArea {
    public let journeys: Journeys
    let dryRuns: JourneyDryRuns
    let reports: JourneyReports
    /// The templates and the sign-in's audit log.
    let core: PanelCore
    public let services: [any Service]

    /// `campaigns`: journeys are campaigns, sent by its dispatcher.
    init(core: PanelCore, campaigns: CampaignsArea) {
        let (configuration, logger, health) = (core.configuration, core.logger, core.site.health)
        let journeys = Journeys(campaigns: campaigns.campaigns)
        self.journeys = journeys
        self.core = core
        dryRuns = JourneyDryRuns(
            audience: journeys.audience, defaultTimeZone: journeys.defaultTimeZone, database: core.database,
            work: core.site.backgroundWork)
        reports = JourneyReports(database: core.database)
        let runner = JourneyRunner(journeys: journeys)
        services = [
            // Not skipped while nothing changed: users cross most triggers by the clock alone (a
            // subscription nearing its end, a user going quiet), and are entered at the next tick.
            PeriodicJob(
                name: "journeys", every: configuration.journeyInterval, health: health, logger: logger,
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

    func addRoutes(to staffRoutes: inout StaffRoutes) {
        JourneysController(
            source: .init(
                journeys: journeys, dryRuns: dryRuns, reports: reports,
                consentWindow: core.configuration.consentWindow), templates: core.templates.library,
            templateProblem: core.templates.problem, auditLog: core.auth.signIn.audit
        ).addRoutes(to: &staffRoutes)
    }
}
