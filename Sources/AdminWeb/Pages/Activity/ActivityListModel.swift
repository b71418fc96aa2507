import AdminDomain
import Foundation

struct ActivityListModel: PageModel {
    let form: ActivityForm
    let query: ActivityListQuery
    /// nil when the form was refused: `problems` says why, and no list is served.
    let size: ListSize?
    let page: ActivityPage?
    let problems: [String]
    /// Users in no bucket at the last full count (a last activity far ahead, or no time).
    var outsideEveryList = 0
    /// When the list was counted and read: the page says so, as its CSV's name does, since
    /// both change by the minute as users come and go.
    var asOf: Date?

    /// The lists, and the dashboard's counts for a list that is a whole bucket.
    struct Source: Sendable {
        let lists: ActivityLists
        let dashboard: DashboardRefresher
    }

    static func load(_ source: Source, _ form: ActivityForm) async throws -> ActivityListModel {
        let (query, cursor, before, problems) = form.pageQuery
        let now = Date()
        guard problems.isEmpty else {
            return ActivityListModel(form: form, query: query, size: nil, page: nil, problems: problems)
        }
        async let page = source.lists.page(query, after: cursor, before: before)
        let (counted, shown) = (try await size(source, query.filter), try await page)
        let isFirstPage = cursor == nil && shown.previous == nil
        var model = ActivityListModel(
            form: form, query: query, size: reconciled(counted, with: shown, isFirstPage: isFirstPage),
            page: shown, problems: problems)
        model.asOf = now
        if let snapshot = await source.dashboard.latest() {
            model.outsideEveryList = max(0, snapshot.totalUsers - snapshot.usersByActivity.values.reduce(0, +))
        }
        return model
    }

    /// An estimate never contradicts the rows shown: a first page that is the whole list is
    /// its exact size, and an estimate whose range ends below the rows shown gives way to
    /// "at least" that many.
    static func reconciled(_ size: ListSize, with page: ActivityPage, isFirstPage: Bool) -> ListSize {
        guard size.isEstimate, isFirstPage else { return size }
        if page.next == nil && !page.stoppedOnBudget {
            return ListSize(value: page.users.count, isEstimate: false)
        }
        // The sample's range ends below the rows this page shows: only those are certain.
        guard size.value + (size.margin ?? 0) < page.users.count else { return size }
        return ListSize(value: page.users.count, isEstimate: true, isAtLeast: true)
    }

    /// A bucket alone is the dashboard's own count (one definition of active, one number);
    /// with filters, the lists count or estimate it.
    static func size(_ source: Source, _ filter: UserFilter) async throws -> ListSize {
        // Never waits for a first computation at start: until it is done, the list counts.
        if filter.isBucketOnly, let snapshot = await source.dashboard.latest(),
            let count = snapshot.usersByActivity[filter.bucket]
        {
            return ListSize(value: count, isEstimate: false, countedAt: snapshot.countedAt)
        }
        return try await source.lists.size(filter)
    }
}
