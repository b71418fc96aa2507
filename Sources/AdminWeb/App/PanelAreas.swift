import AdminDomain
import Logging

/// Every area of the panel on one core, each handed the areas it depends on explicitly (the
/// journeys the campaigns, the dashboard both, support the dashboard's figures). The
/// executable, the demo and the bench build this value; `list` is what `buildApplication`
/// serves.
public struct PanelAreas: Sendable {
    public let core: PanelCore
    public let reminders: RemindersArea
    public let campaigns: CampaignsArea
    public let journeys: JourneysArea
    public let dashboard: DashboardArea
    public let support: SupportArea

    /// - Parameter logger: the panel's and its jobs' logger, at the configured level.
    public init(database: PanelDatabase, configuration: PanelConfiguration, logger: Logger? = nil) {
        let core = PanelCore(database: database, configuration: configuration, logger: logger)
        self.core = core
        reminders = RemindersArea(core: core)
        campaigns = CampaignsArea(core: core)
        journeys = JourneysArea(core: core, campaigns: campaigns)
        dashboard = DashboardArea(
            core: core, refresher: DashboardArea.refresher(core), campaigns: campaigns, journeys: journeys)
        support = SupportArea(core: core, dashboard: dashboard.refresher)
    }

    public var database: PanelDatabase { core.database }
    public var configuration: PanelConfiguration { core.configuration }
    public var logger: Logger { core.logger }
    public var site: SiteArea { core.site }
    public var auth: AuthArea { core.auth }

    /// The areas in the order their services start and their routes are added.
    var list: [any PanelArea] { [dashboard, reminders, campaigns, journeys, support] }
}
