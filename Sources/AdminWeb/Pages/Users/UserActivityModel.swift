import AdminDomain
import Hummingbird

struct UserActivityModel: PageModel {
    let user: UserSummary
    let form: ActivityLogForm
    /// nil when the form was refused: `problems` says why.
    let page: UserActivityLog.Page?
    let problems: [String]

    static func load(_ services: PanelServices, _ input: (id: Int64, form: ActivityLogForm)) async throws -> UserActivityModel {
        let (id, form) = input
        guard let user = try await UserDirectory(database: services.database).summary(id: id) else { throw PanelError.notFound("No user #\(id).") }
        let (filter, cursor, problems) = form.query
        guard problems.isEmpty else { return UserActivityModel(user: user, form: form, page: nil, problems: problems) }
        let page = try await UserActivityLog(database: services.database).page(userID: id, filter: filter, before: cursor)
        return UserActivityModel(user: user, form: form, page: page, problems: [])
    }
}
