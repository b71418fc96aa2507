import AdminDomain

/// The audit log, newest first, fifty a page, keyset on (at, id) both ways. No total: the
/// log is large and grows with every look, and a count would read all of it.
struct AuditLogModel: PageModel {
    static let pageSize = 50

    /// Where a page starts, in the list's order: after a row (Next, older), before one
    /// (Previous, newer), or at the top.
    enum Position: Equatable, Sendable {
        case first
        case after(Int64)
        case before(Int64)
    }

    let filter: AuditFilter
    let rows: [AuditRow]
    /// The first row shown, when newer rows are above it: Previous ends before it.
    var newer: Int64?
    /// The last row shown, when older rows follow: Next starts after it.
    var older: Int64?
    let problem: String?

    static func load(_ log: AuditLog, _ input: (filter: AuditFilter, position: Position)) async throws -> AuditLogModel
    {
        let (filter, position) = input
        switch filter.query {
        case .failure(let problem):
            return AuditLogModel(filter: filter, rows: [], problem: problem.message)
        case .success(let query):
            do {
                return try await page(log, query, filter: filter, position: position)
            } catch let refused as TooManyActors {
                return AuditLogModel(filter: filter, rows: [], problem: AuditFilterProblem(refused).message)
            }
        }
    }

    private static func page(_ log: AuditLog, _ query: AuditQuery, filter: AuditFilter, position: Position) async throws
        -> AuditLogModel
    {
        switch position {
        case .before(let id):
            // The page's rows and one more above them, to know whether there are newer ones.
            let rows = try await log.page(query, newerThan: id, limit: pageSize + 1)
            // Fewer than a page above: the top page, full.
            if rows.count < pageSize { return try await page(log, query, filter: filter, position: .first) }
            let shown = Array(rows.suffix(pageSize))
            return AuditLogModel(
                filter: filter, rows: shown, newer: rows.count > pageSize ? shown.first?.id : nil,
                older: shown.last?.id, problem: nil)
        case .first, .after:
            let after: Int64? = if case .after(let id) = position { id } else { nil }
            let rows = try await log.page(query, before: after, limit: pageSize + 1)
            let shown = Array(rows.prefix(pageSize))
            return AuditLogModel(
                filter: filter, rows: shown, newer: after == nil ? nil : shown.first?.id,
                older: rows.count > pageSize ? shown.last?.id : nil, problem: nil)
        }
    }
}
