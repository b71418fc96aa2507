import AdminDomain
import Hummingbird

/// The audit log for admins: a filtered, keyset-paginated page and a streamed CSV.
struct AuditController {
    let services: PanelServices

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.auditLog(), requires: .readAuditLog, use: show)
        routes.get(.auditCSV(AuditFilter()), requires: .readAuditLog, use: csv)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let before = request.uri.queryParameters.get("before").flatMap { Int64($0) }
        let model = try await AuditLogModel.load(services: services, filter: AuditFilter(request: request), before: before)
        return HTMLPage(AuditLogView(model: model, viewer: context.viewer), status: model.problem == nil ? .ok : .badRequest)
    }

    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        let filter = AuditFilter(request: request)
        guard case let .success(query) = filter.query else {
            return try await show(request: request, context: context).response()
        }
        try await services.signIn.audit.append(AuditEntry(
            actor: context.identity, clientAddress: context.clientAddress, action: .auditExported,
            detail: filter.queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")))
        let audit = services.signIn.audit
        // Written batch by batch: memory stays flat however long the log is.
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"audit-log.csv\""],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: CSV.line(["id", "at", "actor_email", "client_address", "action", "target", "detail"])))
                try await audit.forEachBatch(query) { rows in
                    var buffer = ByteBuffer()
                    for row in rows {
                        buffer.writeString(CSV.line([String(row.id), row.at, row.actorEmail ?? "", row.clientAddress ?? "",
                                                     row.action, row.target ?? "", row.detail ?? ""]))
                    }
                    try await writer.write(buffer)
                }
                try await writer.finish(nil)
            })
    }
}
