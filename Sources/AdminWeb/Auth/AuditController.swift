import AdminDomain
import Hummingbird

/// The audit log for admins: a filtered, keyset-paginated page and a streamed CSV.
struct AuditController {
    let log: AuditLog
    let audit: StaffAudit

    func addRoutes(to routes: inout StaffRoutes) {
        routes.get(
            .auditLog(), requires: .readAuditLog, query: AuditFilter.fieldNames + ["after", "before", "sort", "dir"],
            use: show)
        routes.get(
            .auditCSV(AuditFilter()), requires: .readAuditLog,
            query: AuditFilter.fieldNames + ["after", "before", "sort", "dir"], use: csv)
    }

    /// Where the page starts; an order or a page link the log does not have is refused, on
    /// the page and its CSV alike, never served as another.
    static func position(_ parameters: FormFields) throws -> AuditLogModel.Position {
        // One order only: a sort asked for is refused, never served as another.
        if parameters["sort"] != nil || parameters["dir"] != nil {
            throw PanelError(
                status: .badRequest,
                sentence: "The audit log is listed newest first only: it cannot be sorted another way.")
        }
        switch (parameters["after"], parameters["before"]) {
        case (nil, nil): return .first
        case (let after?, nil) where Int64(after) != nil: return .after(Int64(after)!)
        case (nil, let before?) where Int64(before) != nil: return .before(Int64(before)!)
        // A link the panel writes holds one number, after or before.
        default: throw PanelError(status: .badRequest, sentence: "That page link is broken: go back to the first page.")
        }
    }

    @Sendable func show(request: Request, context: StaffRequestContext) async throws -> HTMLPage {
        let position = try Self.position(request.queryFields)
        let model = try await AuditLogModel.load(log, (AuditFilter(request: request), position))
        return HTMLPage(
            AuditLogView(model: model, viewer: context.viewer), status: model.problem == nil ? .ok : .badRequest)
    }

    @Sendable func csv(request: Request, context: StaffRequestContext) async throws -> Response {
        // The whole log, from its newest row: an order or a page link is refused as on the page.
        _ = try Self.position(request.queryFields)
        let filter = AuditFilter(request: request)
        let log = self.log
        guard case .success(let query) = filter.query else {
            return try await show(request: request, context: context).response()
        }
        // Refused before the first byte, not halfway through a download.
        do { _ = try await log.page(query, limit: 1) } catch is TooManyActors {
            return try await show(request: request, context: context).response()
        }
        try await audit(context, .auditExported, detail: filter.queryItems.auditDetail)
        return CSV.response(
            filename: CSV.filename("audit-log", [query.action?.rawValue, query.fromDay, query.toDay]),
            header: ["id", "at", "actor_email", "client_address", "action", "target", "detail", "looks", "last_at"]
        ) { emit in
            try await log.forEachBatch(query) { rows in
                try await emit(
                    rows.map { row in
                        // Targets as the page names them: an older `admin:3` reads `staff:3`.
                        [
                            String(row.id), row.at.text, row.actorEmail ?? "", row.clientAddress ?? "", row.action,
                            row.target.map { AuditTarget(stored: $0).description } ?? "", row.detail ?? "",
                            String(row.looks ?? 1), row.lastAt?.text ?? "",
                        ]
                    })
            }
        }
    }
}
