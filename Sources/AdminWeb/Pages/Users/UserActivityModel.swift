import AdminDomain
import Hummingbird

struct UserActivityModel: PageModel {
    let user: UserSummary
    let form: ActivityLogForm
    /// nil when the form was refused: `problems` says why.
    let page: UserActivityLog.Page?
    let problems: [String]

    struct Source: Sendable {
        let directory: UserDirectory
        let log: UserActivityLog
    }

    static func load(_ source: Source, _ input: (id: Int64, form: ActivityLogForm)) async throws -> UserActivityModel {
        let (id, form) = input
        guard let user = try await source.directory.summary(id: id) else {
            throw PanelError.notFound("No user #\(id).")
        }
        let (filter, cursor, problems) = form.query
        guard problems.isEmpty else { return UserActivityModel(user: user, form: form, page: nil, problems: problems) }
        let page = try await source.log.page(userID: id, filter: filter, before: cursor)
        return UserActivityModel(user: user, form: form, page: page, problems: [])
    }
}
