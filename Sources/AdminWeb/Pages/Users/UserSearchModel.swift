import AdminDomain

struct UserSearchModel: PageModel {
    let form: UserSearchForm
    /// nil before anything is searched, and when the form was refused.
    let result: UserSearchResult?
    var problems: [String] = []

    static func load(_ directory: UserDirectory, _ form: UserSearchForm) async throws -> UserSearchModel {
        let (query, problems) = form.query
        guard let query else { return UserSearchModel(form: form, result: nil, problems: problems) }
        return UserSearchModel(form: form, result: try await directory.search(query))
    }
}
