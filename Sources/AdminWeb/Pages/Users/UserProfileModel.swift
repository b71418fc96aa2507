import AdminDomain
import Hummingbird

struct UserProfileModel: PageModel {
    let profile: UserProfile
    let form: ItemsForm
    let items: UserItems.Page

    static func load(_ services: PanelServices, _ input: (id: Int64, form: ItemsForm)) async throws -> UserProfileModel {
        let (id, form) = input
        guard let profile = try await UserProfile.load(id: id, database: services.database) else { throw HTTPError(.notFound) }
        let items = try await UserItems(database: services.database)
            .page(userID: id, calendar: profile.calendar, filter: form.filter, after: form.cursor)
        return UserProfileModel(profile: profile, form: form, items: items)
    }
}
