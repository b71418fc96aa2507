import AdminDomain
import Hummingbird

/// The audit log for admins: a filtered, keyset-paginated page and a streamed CSV.
struct AuditController {
    let log: AuditLog
    let audit: StaffAudit

    func addRoutes(to routes: StaffRoutes) {
        routes.get(.auditLog(), requires: .readAuditLog, use: show)
        routes.get(.auditCSV(AuditFilter()), requires: .readAuditLog, use: csv)
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let before = request.uri.queryParameters.get("before").flatMap { Int64($0) }
        let model = try await AuditLogModel.load(log, (AuditFilter(request: request), before))
        return HTMLPage(AuditLogView(model: model, viewer: context.viewer), status: model.problem == nil ? .ok : .badRequest)
    }

    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        let filter = AuditFilter(request: request)
        let log = self.log
        guard case let .success(query) = filter.query else {
            return try await show(request: request, context: context).response()
        }
        // Refused before the first byte, not halfway through a download.
        do { _ = try await log.page(query, limit: 1) } catch is TooManyActors {
            return try await show(request: request, context: context).response()
        }
        try await audit(context, .auditExported, detail: filter.queryItems.auditDetail)
        return CSV.response(filename: CSV.filename("audit-log", [query.action?.rawValue, query.fromDay, query.toDay]),
                            header: ["id", "at", "actor_email", "client_address", "action", "target", "detail"]) { emit in
            try await log.forEachBatch(query) { rows in
                try await emit(rows.map { row in
                    // Targets as the page names them: an older `admin:3` reads `staff:3`.
                    [String(row.id), row.at, row.actorEmail ?? "", row.clientAddress ?? "", row.action,
                     row.target.map { AuditTarget(stored: $0).description } ?? "", row.detail ?? ""]
                })
            }
        }
    }
}
