import AdminDomain
import ServiceLifecycle

@testable import AdminWeb

extension TestPanel {
    /// The areas a test panel can serve besides the core (site and sign-in).
    enum Area: CaseIterable {
        case dashboard, reminders, support, campaigns, journeys
    }

    /// The core and the named areas, each built on what it depends on as `PanelAreas` builds
    /// it (journeys on campaigns, the dashboard on both, support on the dashboard's figures);
    /// a dependency is built, not served. Asking for an area the panel was built without
    /// fails the test with its name.
    struct Areas {
        let core: PanelCore
        let served: [any PanelArea]
        private let built: Built

        private struct Built {
            var reminders: RemindersArea?
            var campaigns: CampaignsArea?
            var journeys: JourneysArea?
            var dashboard: DashboardArea?
            var support: SupportArea?
        }

        init(core: PanelCore, names: Set<Area>) {
            self.core = core
            var built = Built()
            if names.contains(.reminders) { built.reminders = RemindersArea(core: core) }
            if !names.isDisjoint(with: [.campaigns, .journeys, .dashboard]) {
                built.campaigns = CampaignsArea(core: core)
            }
            if let campaigns = built.campaigns, !names.isDisjoint(with: [.journeys, .dashboard]) {
                built.journeys = JourneysArea(core: core, campaigns: campaigns)
            }
            if let campaigns = built.campaigns, let journeys = built.journeys, names.contains(.dashboard) {
                built.dashboard = DashboardArea(
                    core: core, refresher: DashboardArea.refresher(core), campaigns: campaigns, journeys: journeys)
            }
            if names.contains(.support) {
                built.support = SupportArea(
                    core: core, dashboard: built.dashboard?.refresher ?? DashboardArea.refresher(core))
            }
            self.built = built
            // In `PanelAreas.list`'s order.
            let named: [(Area, (any PanelArea)?)] = [
                (.dashboard, built.dashboard), (.reminders, built.reminders), (.campaigns, built.campaigns),
                (.journeys, built.journeys), (.support, built.support),
            ]
            served = named.compactMap { names.contains($0.0) ? $0.1 : nil }
        }

        var database: PanelDatabase { core.database }
        var site: SiteArea { core.site }
        var auth: AuthArea { core.auth }
        var reminders: RemindersArea { get throws { try Self.required(built.reminders, .reminders) } }
        var campaigns: CampaignsArea { get throws { try Self.required(built.campaigns, .campaigns) } }
        var journeys: JourneysArea { get throws { try Self.required(built.journeys, .journeys) } }
        var dashboard: DashboardArea { get throws { try Self.required(built.dashboard, .dashboard) } }
        var support: SupportArea { get throws { try Self.required(built.support, .support) } }
        /// The reminders when they are served, else nil.
        var remindersIfServed: RemindersArea? { served.contains { $0 is RemindersArea } ? built.reminders : nil }
        /// The dashboard when it is served, else nil.
        var dashboardIfServed: DashboardArea? { served.contains { $0 is DashboardArea } ? built.dashboard : nil }
        /// The core's services and the served areas', as `buildApplication` runs them.
        var services: [any Service] { core.services + served.flatMap(\.services) }

        private static func required<Built>(_ area: Built?, _ name: Area) throws -> Built {
            guard let area else { throw NotBuilt(area: name) }
            return area
        }
    }

    struct NotBuilt: Error, CustomStringConvertible {
        let area: Area
        var description: String { "this test panel was built without \(area): name it in TestPanel(areas:)" }
    }
}
