import AdminDomain

struct UserSearchModel: PageModel {
    let form: UserSearchForm
    /// nil before anything is searched.
    let result: UserSearchResult?

    static func load(_ services: PanelServices, _ form: UserSearchForm) async throws -> UserSearchModel {
        guard let query = form.query else { return UserSearchModel(form: form, result: nil) }
        return UserSearchModel(form: form, result: try await UserDirectory(database: services.database).search(query))
    }
}
