import AdminDomain
import Hummingbird

struct UserActivityModel: PageModel {
    let user: UserSummary
    let form: ActivityLogForm
    let page: UserActivityLog.Page
    let problems: [String]

    static func load(_ services: PanelServices, _ input: (id: Int64, form: ActivityLogForm)) async throws -> UserActivityModel {
        let (id, form) = input
        guard let user = try await UserDirectory(database: services.database).summary(id: id) else { throw HTTPError(.notFound) }
        let (filter, problems) = form.filter
        let page = try await UserActivityLog(database: services.database).page(userID: id, filter: filter, before: form.cursor)
        return UserActivityModel(user: user, form: form, page: page, problems: problems)
    }
}
