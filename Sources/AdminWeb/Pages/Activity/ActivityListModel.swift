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
        async let page = lists.page(query, after: cursor)
        return ActivityListModel(form: form, query: query, size: try await size(services, query.filter), page: try await page,
                                 problems: problems)
    }

    /// A bucket alone is the dashboard's own count (one definition of active, one number);
    /// with filters, the lists count or estimate it.
    static func size(_ services: PanelServices, _ filter: UserFilter) async throws -> ListSize {
        // Never waits for a first computation at start: until it is done, the list counts.
        if filter.isBucketOnly, let snapshot = await services.dashboard.latest(), let count = snapshot.usersByActivity[filter.bucket] {
            return ListSize(value: count, isEstimate: false, countedAt: snapshot.countedAt)
        }
        return try await ActivityLists(database: services.database).size(filter)
    }
}
