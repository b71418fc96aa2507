import AdminDomain
import Foundation
import Hummingbird

/// The reminder health page and its CSV, for every role: they show counts, nothing personal.
/// Both read the monitor's latest snapshot and never wait for a count.
struct RemindersController {
    let source: RemindersModel.Source

    func addRoutes(to routes: inout StaffRoutes) {
        // A second range is refused by the model with its own sentence.
        routes.get(.reminders(.day), requires: .viewDashboard, query: ["range"], repeatable: ["range"], use: show)
        routes.get(.remindersCSV(.day), requires: .viewDashboard, query: ["range"], repeatable: ["range"], use: csv)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let range = try RemindersModel.range(from: request.queryFields.values("range"))
        let model = try await RemindersModel.load(source, range)
        return HTMLPage(RemindersView(model: model, viewer: context.viewer))
    }

    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        let range = try RemindersModel.range(from: request.queryFields.values("range"))
        // Never waits for the count (issue 46): before the first one is in, a sentence.
        let model = try await RemindersModel.load(source, range)
        guard model.report != nil else {
            throw PanelError(
                status: .serviceUnavailable,
                sentence: "The reminder figures are being counted: try again in a few seconds.", retryAfterSeconds: 5)
        }
        return CSV.response(
            filename: CSV.filename("reminders", [range.rawValue]), header: RemindersModel.csvHeader, rows: model.csvRows
        )
    }
}
