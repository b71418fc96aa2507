import AdminDomain
import Foundation
import Logging
import ServiceLifecycle

/// The dashboard: its snapshot, refreshed in the background, and its page body rendered once
/// per snapshot and range. It shows the campaigns' and journeys' figures, so it is handed
/// theirs.
public struct DashboardArea: PanelArea {
    /// The dashboard's snapshot and its refreshes; the activity lists read it too.
    public let refresher: DashboardRefresher
    let pages = DashboardPageCache()
    let source: DashboardModel.Source
    let work: BackgroundWork
    public let services: [any Service]

    /// The dashboard's figures, which support's activity lists read too: built before either area.
    static func refresher(_ core: PanelCore) -> DashboardRefresher {
        DashboardRefresher(database: core.database, fullEvery: core.configuration.dashboardFullCountInterval)
    }

    init(core: PanelCore, refresher: DashboardRefresher, campaigns: CampaignsArea, journeys: JourneysArea) {
        let (configuration, logger, health) = (core.configuration, core.logger, core.site.health)
        work = core.site.backgroundWork
        self.refresher = refresher
        source = .init(
            dashboard: refresher, refreshEvery: configuration.dashboardRefreshInterval,
            fullCountEvery: configuration.dashboardFullCountInterval, campaigns: campaigns.campaigns,
            impact: campaigns.impact, journeys: journeys.journeys)
        let interval = Duration.seconds(max(1, configuration.dashboardRefreshInterval))
        // New rows come from other connections (the backend) or this process's campaigns; with
        // neither, only the days rolling over change a figure: every five minutes is enough.
        let changed = ChangeGate(
            watch: core.database.watch, changes: campaigns.campaigns.changes, atLeastEvery: max(interval, .seconds(300))
        )
        services = [
            // A failed refresh is kept by the refresher for admins to see; the job itself goes on.
            PeriodicJob(
                name: "dashboard-refresher", every: interval, health: health, logger: logger,
                runOnlyIf: { await changed.shouldRun() },
                work: {
                    await refresher.refresh()
                })
        ]
    }

    func addRoutes(to staffRoutes: inout StaffRoutes) {
        DashboardController(source: source, pages: pages, work: work).addRoutes(to: &staffRoutes)
    }
}
