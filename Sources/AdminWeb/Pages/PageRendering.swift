import AdminDomain
import Foundation
import HTMLRender
import PushTemplates

/// Pages rendered to bytes as support sees them, without HTTP and without audit rows: for
/// the support benchmark, which times the queries and the HTML together. `query` holds a
/// page's filters as its address would (`state=expired`, `bucket=idle`, …).
public enum PageRendering {
    static let viewer = Viewer(
        identity: StaffIdentity(adminID: 0, email: "bench@example.com", role: .support), csrfToken: "x")

    /// What support's two pages read, on one database, as the benchmark uses them.
    public struct Sources: Sendable {
        let profile: UserProfileModel.Source
        let lists: ActivityListModel.Source
        let reminders: UserReminders
        let items: UserItems
        /// The dashboard's counts, which an activity list that is a whole bucket takes its size from.
        public let dashboard: DashboardRefresher

        public init(database: PanelDatabase) {
            dashboard = DashboardRefresher(database: database)
            let heavyUsers = HeavyUserCache()
            profile = .init(database: database, heavyUsers: heavyUsers, templates: PushTemplateLibrary())
            items = UserItems(database: database, cache: heavyUsers)
            lists = .init(lists: ActivityLists(database: database), dashboard: dashboard)
            reminders = UserReminders(database: database)
        }
    }

    /// Throws a 404 `HTTPError` when there is no such user.
    public static func profile(userID: Int64, sources: Sources) async throws -> [UInt8] {
        let model = try await UserProfileModel.load(sources.profile, userID)
        return HTMLDocument(root: UserProfileView(model: model, viewer: viewer).content).render()
    }

    /// A user's items page, as `/users/:id/items?…` shows it.
    public static func userItems(userID: Int64, query: [String: String] = [:], sources: Sources) async throws
        -> [UInt8]
    {
        let model = try await UserItemsModel.load(sources.items, (userID, ItemsForm(fields: query)))
        return HTMLDocument(root: UserItemsView(model: model, viewer: viewer).content).render()
    }

    /// A user's reminders page, as `/users/:id/reminders?…` shows it.
    public static func userReminders(userID: Int64, query: [String: String] = [:], sources: Sources) async throws
        -> [UInt8]
    {
        let model = try await UserRemindersModel.load(sources.reminders, (userID, RemindersForm(fields: query), Date()))
        return HTMLDocument(root: UserRemindersView(model: model, viewer: viewer).content).render()
    }

    /// The activity list's first page with its size.
    public static func activityList(query: [String: String], sources: Sources) async throws -> [UInt8] {
        let model = try await ActivityListModel.load(sources.lists, ActivityForm(fields: query))
        return HTMLDocument(root: ActivityListView(model: model, viewer: viewer).content).render()
    }

    /// One user as a line of the activity export.
    public static func exportLine(_ user: UserSummary) -> String {
        CSV.line(user.csvCells)
    }
}
