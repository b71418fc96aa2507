import AdminDomain
import Hummingbird

struct UserProfileModel: PageModel {
    let profile: UserProfile
    let form: ItemsForm
    let filter: UserItems.Filter
    /// nil when the items form was refused: `problems` says why.
    let items: UserItems.Page?
    var problems: [String] = []
    /// The campaign pushes sent to the user's devices, newest first.
    var campaignPushes: [CampaignPushOfUser] = []

    static func load(_ services: PanelServices, _ input: (id: Int64, form: ItemsForm)) async throws -> UserProfileModel {
        let (id, form) = input
        guard let profile = try await UserProfile.load(id: id, database: services.database, cache: services.heavyUsers) else { throw PanelError.notFound("No user #\(id).") }
        let (filter, cursor, problems) = form.query
        let pushes = try await CampaignPushOfUser.latest(userID: id, in: services.database)
        guard problems.isEmpty else {
            return UserProfileModel(profile: profile, form: form, filter: filter, items: nil, problems: problems, campaignPushes: pushes)
        }
        let items = try await UserItems(database: services.database, cache: services.heavyUsers)
            .page(userID: id, calendar: profile.calendar, filter: filter, after: cursor)
        return UserProfileModel(profile: profile, form: form, filter: filter, items: items, campaignPushes: pushes)
    }
}
