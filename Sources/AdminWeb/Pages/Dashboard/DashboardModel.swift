import AdminDomain
import Foundation

/// The dashboard's data, ready to render.
struct DashboardModel {
    let stats: DashboardStats
    let maxAge: TimeInterval

    static func load(services: PanelServices) async throws -> DashboardModel {
        DashboardModel(stats: try await services.stats.stats(), maxAge: services.statsMaxAge)
    }
}
