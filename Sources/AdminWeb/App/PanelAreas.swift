import AdminDomain
import Logging
import ServiceLifecycle

/// The panel's areas, each building its own services, background services and routes from
/// the shared parts only: the database, the configuration, a logger, and the few objects
/// several areas need, handed to each explicitly (the jobs' health record and the cookies of
/// `site`, the sign-in's sessions and audit log of `auth`, the templates, the campaigns).
/// `buildApplication` lists them; the executable, the demo, the bench and the tests build
/// this one value.
public struct PanelAreas: Sendable {
    public let database: PanelDatabase
    public let configuration: PanelConfiguration
    public let logger: Logger
    public let site: SiteArea
    public let auth: AuthArea
    public let reminders: RemindersArea
    public let campaigns: CampaignsArea
    public let journeys: JourneysArea
    public let dashboard: DashboardArea
    public let support: SupportArea

    /// - Parameter logger: the panel's and its jobs' logger, at the configured level.
    public init(database: PanelDatabase, configuration: PanelConfiguration, logger: Logger? = nil) {
        var logger = logger ?? Logger(label: "admin-panel")
        logger.logLevel = configuration.logLevel
        self.database = database
        self.configuration = configuration
        self.logger = logger
        let templates = MessageTemplates(folder: configuration.templatesDirectory)
        site = SiteArea(database: database, configuration: configuration)
        let health = site.health
        auth = AuthArea(
            database: database, configuration: configuration, logger: logger, health: health, cookies: site.cookies)
        reminders = RemindersArea(database: database, configuration: configuration, logger: logger, health: health)
        campaigns = CampaignsArea(
            database: database, configuration: configuration, logger: logger, health: health, templates: templates,
            work: site.backgroundWork)
        journeys = JourneysArea(
            database: database, configuration: configuration, logger: logger, health: health,
            campaigns: campaigns.campaigns, templates: templates, work: site.backgroundWork)
        dashboard = DashboardArea(
            database: database, configuration: configuration, logger: logger, health: health,
            campaigns: campaigns.campaigns, impact: campaigns.impact, journeys: journeys.journeys,
            work: site.backgroundWork)
        support = SupportArea(
            database: database, configuration: configuration, templates: templates, dashboard: dashboard.refresher)
    }

    /// Every area's background services, in the order the group starts them (it stops them in
    /// reverse: the audit flusher, first here, flushes last).
    var services: [any Service] {
        // Background work stops before the audit flusher: what it runs may still write audit rows.
        auth.services + [site.backgroundWork] + dashboard.services + reminders.services + campaigns.services
            + journeys.services + support.services
    }
}
