import AdminDomain

struct ActivityListModel: PageModel {
    let form: ActivityForm
    let query: ActivityListQuery
    let size: ListSize
    let page: ActivityPage
    let problems: [String]

    static func load(_ services: PanelServices, _ form: ActivityForm) async throws -> ActivityListModel {
        let (query, problems) = form.query
        let lists = ActivityLists(database: services.database)
        async let size = lists.size(query.filter)
        async let page = lists.page(query, after: form.cursor)
        return ActivityListModel(form: form, query: query, size: try await size, page: try await page, problems: problems)
    }
}
