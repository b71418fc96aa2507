import AdminDomain
import Foundation

/// The dashboard's data, ready to render.
struct DashboardModel: PageModel {
    let stats: DashboardStats
    let maxAge: TimeInterval

    static func load(_ services: PanelServices, _ input: Void) async throws -> DashboardModel {
        DashboardModel(stats: try await services.stats.stats(), maxAge: services.statsMaxAge)
    }
}
