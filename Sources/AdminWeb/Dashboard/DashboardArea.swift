import AdminDomain
import Foundation
import Logging
import ServiceLifecycle

/// The dashboard: its snapshot, refreshed in the background, and its page body rendered once
/// per snapshot and range. It shows the campaigns' and journeys' figures, so it is handed
/// theirs.
public struct DashboardArea: Sendable {
    /// The dashboard's snapshot and its refreshes; the activity lists read it too.
    public let refresher: DashboardRefresher
    let pages = DashboardPageCache()
    let source: DashboardModel.Source
    let work: BackgroundWork
    public let services: [any Service]

    init(
        database: PanelDatabase, configuration: PanelConfiguration, logger: Logger, health: ServiceHealth,
        campaigns: Campaigns,
        impact: CampaignImpactTracker, journeys: Journeys, work: BackgroundWork
    ) {
        self.work = work
        let refresher = DashboardRefresher(database: database, fullEvery: configuration.dashboardFullCountInterval)
        self.refresher = refresher
        source = .init(
            dashboard: refresher, refreshEvery: configuration.dashboardRefreshInterval,
            fullCountEvery: configuration.dashboardFullCountInterval, campaigns: campaigns, impact: impact,
            journeys: journeys)
        let interval = Duration.seconds(max(1, configuration.dashboardRefreshInterval))
        // New rows come from other connections (the backend) or this process's campaigns; with
        // neither, only the days rolling over change a figure: every five minutes is enough.
        let changed = ChangeGate(
            watch: database.watch, changes: campaigns.changes, atLeastEvery: max(interval, .seconds(300)))
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
