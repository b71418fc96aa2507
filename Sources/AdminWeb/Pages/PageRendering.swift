import AdminDomain
import HTMLRender

/// Pages rendered to bytes as support sees them, without HTTP and without audit rows: for
/// the support benchmark, which times the queries and the HTML together. `query` holds a
/// page's filters as its address would (`state=expired`, `bucket=idle`, …).
public enum PageRendering {
    static let viewer = Viewer(identity: StaffIdentity(adminID: 0, email: "bench@example.com", role: .support), csrfToken: "x")

    /// The domain services on `database`, as the benchmark uses them.
    public static func services(database: PanelDatabase) -> PanelServices {
        PanelServices(database: database, configuration: PanelConfiguration(databasePath: ""))
    }

    /// Throws a 404 `HTTPError` when there is no such user.
    public static func profile(userID: Int64, query: [String: String] = [:], services: PanelServices) async throws -> [UInt8] {
        let model = try await UserProfileModel.load(services, (userID, ItemsForm(fields: query)))
        return HTMLDocument(root: UserProfileView(model: model, viewer: viewer).content).render()
    }

    /// The activity list's first page with its size.
    public static func activityList(query: [String: String], services: PanelServices) async throws -> [UInt8] {
        let model = try await ActivityListModel.load(services, ActivityForm(fields: query))
        return HTMLDocument(root: ActivityListView(model: model, viewer: viewer).content).render()
    }

    /// One user as a line of the activity export.
    public static func exportLine(_ user: UserSummary) -> String {
        CSV.line(user.csvCells)
    }
}
