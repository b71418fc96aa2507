import AdminDomain
import Logging
import ServiceLifecycle

/// What every panel serves whatever its areas: the shared parts (database, configuration,
/// logger, templates), the site (middleware, cookies, /health, background work) and sign-in
/// with the staff pages (auth), whose sessions and audit log the areas are handed.
public struct PanelCore: Sendable {
    public let database: PanelDatabase
    public let configuration: PanelConfiguration
    public let logger: Logger
    let templates: MessageTemplates
    public let site: SiteArea
    public let auth: AuthArea
    /// The reminder figures every page's alert banner and /health show; the reminders area
    /// re-reads them in the background.
    public let reminderHealth: ReminderHealthMonitor

    /// - Parameter logger: the panel's and its jobs' logger, at the configured level.
    public init(database: PanelDatabase, configuration: PanelConfiguration, logger: Logger? = nil) {
        var logger = logger ?? Logger(label: "admin-panel")
        logger.logLevel = configuration.logLevel
        self.database = database
        self.configuration = configuration
        self.logger = logger
        templates = MessageTemplates(folder: configuration.templatesDirectory)
        site = SiteArea(database: database, configuration: configuration)
        auth = AuthArea(
            database: database, configuration: configuration, logger: logger, health: site.health,
            cookies: site.cookies)
        reminderHealth = ReminderHealthMonitor(
            database: database, options: configuration.reminderAlerts,
            fullEvery: configuration.reminderFullCountInterval)
    }

    /// The site's and sign-in's background services, before any area's, in the order the group
    /// starts them (it stops them in reverse: the audit flusher, first here, flushes last).
    var services: [any Service] {
        // Background work stops before the audit flusher: what it runs may still write audit rows.
        auth.services + [site.backgroundWork]
    }
}
