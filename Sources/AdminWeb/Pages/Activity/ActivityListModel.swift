import AdminDomain

struct ActivityListModel: PageModel {
    let form: ActivityForm
    let query: ActivityListQuery
    /// nil when the form was refused: `problems` says why, and no list is served.
    let size: ListSize?
    let page: ActivityPage?
    let problems: [String]

    static func load(_ services: PanelServices, _ form: ActivityForm) async throws -> ActivityListModel {
        let (query, cursor, problems) = form.query
        guard problems.isEmpty else {
            return ActivityListModel(form: form, query: query, size: nil, page: nil, problems: problems)
        }
        let lists = ActivityLists(database: services.database)
        async let size = lists.size(query.filter)
        async let page = lists.page(query, after: cursor)
        return ActivityListModel(form: form, query: query, size: try await size, page: try await page, problems: problems)
    }
}
