import Hummingbird

struct DashboardController {
    let services: PanelServices

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.dashboard, requires: .viewDashboard, use: show)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let model = try await DashboardModel.load(services, ())
        return HTMLPage(DashboardView(model: model, viewer: context.viewer))
    }
}
