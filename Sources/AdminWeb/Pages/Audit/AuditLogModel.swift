import AdminDomain

struct AuditLogModel: PageModel {
    static let pageSize = 50

    let filter: AuditFilter
    let rows: [AuditRow]
    /// The id the page starts below, when it is not the newest page.
    let before: Int64?
    let hasOlder: Bool
    let problem: String?

    static func load(_ log: AuditLog, _ input: (filter: AuditFilter, before: Int64?)) async throws -> AuditLogModel {
        let (filter, before) = input
        switch filter.query {
        case let .failure(problem):
            return AuditLogModel(filter: filter, rows: [], before: before, hasOlder: false, problem: problem.message)
        case let .success(query):
            do {
                let rows = try await log.page(query, before: before, limit: pageSize + 1)
                return AuditLogModel(filter: filter, rows: Array(rows.prefix(pageSize)), before: before,
                                     hasOlder: rows.count > pageSize, problem: nil)
            } catch let refused as TooManyActors {
                return AuditLogModel(filter: filter, rows: [], before: before, hasOlder: false, problem: AuditFilterProblem(refused).message)
            }
        }
    }
}
