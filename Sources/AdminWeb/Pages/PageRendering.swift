import AdminDomain
import HTMLRender

/// Pages rendered to bytes as support sees them, without HTTP and without audit rows: for
/// the support benchmark, which times the queries and the HTML together. `query` holds a
/// page's filters as its address would (`state=expired`, `bucket=idle`, …).
public enum PageRendering {
    static let viewer = Viewer(identity: StaffIdentity(adminID: 0, email: "bench@example.com", role: .support), csrfToken: "x")

    /// nil when there is no such user.
    public static func profile(userID: Int64, query: [String: String] = [:], database: PanelDatabase) async throws -> [UInt8]? {
        guard let model = try await UserProfileModel.load(database: database, id: userID, form: ItemsForm(fields: query)) else {
            return nil
        }
        return HTMLDocument(root: UserProfileView(model: model, viewer: viewer).content).render()
    }

    /// The activity list's first page with its size.
    public static func activityList(query: [String: String], database: PanelDatabase) async throws -> [UInt8] {
        let model = try await ActivityListModel.load(database: database, form: ActivityForm(fields: query))
        return HTMLDocument(root: ActivityListView(model: model, viewer: viewer).content).render()
    }

    /// One user as a line of the activity export.
    public static func exportLine(_ user: UserSummary) -> String {
        CSV.line(user.csvCells)
    }
}
