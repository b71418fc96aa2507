import AdminDomain
import Foundation
import Hummingbird

struct DashboardController {
    let source: DashboardModel.Source
    let pages: DashboardPageCache
    /// Runs the full count an admin asked for, which the request does not wait for.
    let work: BackgroundWork

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.dashboard, requires: .viewDashboard, query: ["range", "refreshing"], use: show)
        routes.get(.dashboardCSV(nil, .standard), requires: .viewDashboard, query: ["chart", "range"], use: csv)
        routes.post(.dashboardRefresh, requires: .refreshDashboard, fields: ["range"], use: refresh)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let range = try DashboardModel.range(from: request.queryFields["range"])
        let model = try await DashboardModel.load(
            source,
            .init(
                range: range, countStartedAt: try DashboardModel.countStart(from: request.queryFields["refreshing"]),
                showsRefreshes: context.identity.role.may(.refreshDashboard)))
        let body = await pages.body(for: model)
        return HTMLPage(DashboardView(model: model, viewer: context.viewer, body: body))
    }

    /// One chart's labels and series for the range, as the page shows them.
    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        let range = try DashboardModel.range(from: request.queryFields["range"])
        guard let name = request.queryFields["chart"], !name.isEmpty else {
            throw PanelError(
                status: .badRequest, sentence: "Say which chart to download: the links under each chart do.")
        }
        guard let id = DashboardChart.ID(rawValue: name) else {
            throw PanelError.notFound("The dashboard has no chart called \"\(name.prefix(40))\".")
        }
        let snapshot = try await DashboardModel.snapshot(source.dashboard)
        guard let chart = snapshot.chart(id)?.slice(for: range) else {
            throw PanelError.notFound("That chart has no data yet.")
        }
        let header = [chart.axis == .days ? "day" : chart.axis == .weeks ? "week" : "label"] + chart.series.map(\.name)
        let rows = chart.labels.indices.map { index in
            [chart.labels[index]]
                + chart.series.map { series in
                    chart.unit == .cents
                        ? Format.moneyAmount(cents: series.values[index], currency: chart.labels[index])
                        : String(series.values[index])
                }
        }
        return CSV.response(
            filename: CSV.filename("dashboard", [id.rawValue, chart.axis == .categories ? nil : "\(range.days)-days"]),
            header: header, rows: rows)
    }

    /// Starts a full count and answers at once: it takes seconds on a big database. The
    /// page it sends the admin to follows the count until its figures are in.
    @Sendable func refresh(request: Request, context: StaffRequestContext) async throws -> Response {
        let range = try DashboardModel.range(from: try await request.formFields()["range"])
        let dashboard = source.dashboard
        let started = Int64(Date().timeIntervalSince1970.rounded(.down))
        work.submit { await dashboard.refresh(full: true, waitedOn: true) }
        return .redirect(to: SiteURL.dashboardRange(range, countStartedAt: started).href, type: .normal)
    }
}
