import AdminDomain

struct SessionsModel: PageModel {
    let sessions: [SessionSummary]
    /// Set after "sign out everywhere else": how many sessions that ended.
    let ended: Int?
    var error: String?

    static func load(
        _ sessions: SessionStore,
        _ input: (identity: StaffIdentity, sessionToken: String, ended: Int?)
    ) async throws -> SessionsModel {
        SessionsModel(
            sessions: try await sessions.list(adminID: input.identity.adminID, currentToken: input.sessionToken),
            ended: input.ended)
    }
}
