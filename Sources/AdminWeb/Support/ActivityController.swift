import AdminDomain
import Foundation
import Hummingbird

/// Users by activity, and the same list as CSV, streamed.
struct ActivityController {
    let lists: ActivityListModel.Source
    let audit: StaffAudit

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(.activity(), requires: .exportUserLists, query: ActivityForm.fieldNames, use: list)
        routes.get(.activityCSV(ActivityForm()), requires: .exportUserLists, query: ActivityForm.fieldNames, use: csv)
    }

    /// The audit row names the list served, as the panel understood it; a refused form
    /// serves none and is not a look at anyone.
    @Sendable func list(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let form = ActivityForm(request: request)
        let model = try await ActivityListModel.load(lists, form)
        if model.page != nil {
            try await audit(context, .activityListViewed, detail: ActivityForm(model.query).queryItems.auditDetail)
        }
        return HTMLPage(
            ActivityListView(model: model, viewer: context.viewer), status: model.problems.isEmpty ? .ok : .badRequest)
    }

    /// Every user of the list, 1,000 rows per read, written as they come.
    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        let (query, _, problems) = ActivityForm(request: request).firstPage.query
        guard problems.isEmpty else { return try await list(request: request, context: context).response() }
        let served = ActivityForm(query)
        try await audit(context, .usersExported, detail: served.queryItems.auditDetail)
        let lists = self.lists.lists
        // Its name says as of when (a list changes by the minute): a line above the header
        // would break the readers of the file, a name breaks nothing.
        let filename = CSV.filename("users", ActivityForm.fieldNames.map { served.fields[$0] } + [CSV.asOf(Date())])
        return CSV.response(filename: filename, header: UserSummary.csvHeader) { emit in
            try await lists.forEachChunk(query) { users in try await emit(users.map(\.csvCells)) }
        }
    }
}

extension UserSummary {
    static let csvHeader = ["id", "email", "display_name", "plan", "status", "created_at", "last_active_at"]

    var csvCells: [String] {
        [String(id), email, displayName ?? "", plan.storedText, status.storedText, createdAt, lastActiveAt ?? ""]
    }
}
