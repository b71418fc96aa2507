import AdminDomain
import Hummingbird

/// Users by activity, and the same list as CSV, streamed.
struct ActivityController {
    let services: PanelServices

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.activity(), requires: .exportUserLists, use: list)
        routes.get(.activityCSV(ActivityForm()), requires: .exportUserLists, use: csv)
    }

    @Sendable func list(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let form = ActivityForm(request: request)
        let model = try await ActivityListModel.load(database: services.database, form: form)
        try await audit(context, .activityListViewed, form)
        return HTMLPage(ActivityListView(model: model, viewer: context.viewer), status: model.problems.isEmpty ? .ok : .badRequest)
    }

    /// Every user of the list, 1,000 rows per read, written as they come: memory stays flat
    /// however long the list.
    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        let form = ActivityForm(request: request).firstPage
        let (filter, problems) = form.filter
        guard problems.isEmpty else { return try await list(request: request, context: context).response() }
        try await audit(context, .usersExported, form)
        let lists = ActivityLists(reader: services.database.reader)
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8",
                      .contentDisposition: "attachment; filename=\"users-\(filter.bucket.rawValue).csv\""],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: CSV.line(
                    ["id", "email", "display_name", "plan", "status", "created_at", "last_active_at"])))
                try await lists.forEachChunk(filter) { users in
                    var buffer = ByteBuffer()
                    for user in users {
                        buffer.writeString(CSV.line([String(user.id), user.email, user.displayName ?? "", user.plan, user.status,
                                                     user.createdAt, user.lastActiveAt ?? ""]))
                    }
                    try await writer.write(buffer)
                }
                try await writer.finish(nil)
            })
    }

    private func audit(_ context: StaffRequestContext, _ action: AuditAction, _ form: ActivityForm) async throws {
        try await services.signIn.audit.append(AuditEntry(
            actor: context.identity, clientAddress: context.clientAddress, action: action,
            detail: String(form.firstPage.queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&").prefix(400))))
    }
}
