import AdminDomain
import CampaignDispatch
import Foundation
import Hummingbird
import PushTemplates

struct UserProfileModel: PageModel {
    let profile: UserProfile
    /// The first page of their food in use; the rest is the items page's.
    let items: UserItems.Page
    var filter: UserItems.Filter { UserItems.Filter() }
    /// The campaign pushes sent to the user's devices, newest first.
    var campaignPushes: [CampaignPushOfUser] = []
    /// Their texts as filled for this user, by delivery id; missing when the campaign's
    /// template no longer exists.
    var pushTexts: [Int64: CampaignTexts.Filled] = [:]
    /// The hour a push at their usual hour would aim for, and why; nil when the user's row is gone.
    var usualHour: UserUsualHour?
    /// Since when the user has been in the global control group, when they are now.
    var globalControl: GlobalControl.Membership?

    /// The verdict at the top of the page, from the rows the profile read.
    var reachability: Reachability { profile.reachability }

    /// The user's rows, the heavy users' cache, and the templates a campaign push was filled from.
    struct Source: Sendable {
        let database: PanelDatabase
        let heavyUsers: HeavyUserCache
        let templates: PushTemplateLibrary
        /// For a user whose timezone is not one, as the campaigns read it.
        var defaultTimeZone = "UTC"
    }

    static func load(_ source: Source, _ id: Int64) async throws -> UserProfileModel {
        guard let profile = try await UserProfile.load(id: id, database: source.database, cache: source.heavyUsers)
        else { throw PanelError.notFound("No user #\(id).") }
        // The rest at once: under load each read waits for a free connection, and a page
        // that read them one after another waited four times (p99 0.6 s under 64 connections).
        async let pushesAndTexts = pushesWithTexts(of: id, source: source)
        // One row of theirs, the peers' row and their quiet hours: read by key.
        let zone = source.defaultTimeZone
        async let usualHour = source.database.read { db in
            try UserUsualHour.load(user: id, now: Date(), defaultTimeZone: zone, in: db)
        }
        async let items = UserItems(database: source.database, cache: source.heavyUsers)
            .page(userID: id, calendar: profile.calendar, filter: UserItems.Filter(), at: .first)
        async let control = GlobalControl(database: source.database).membership(of: id)
        let (pushes, texts) = try await pushesAndTexts
        return UserProfileModel(
            profile: profile, items: try await items, campaignPushes: pushes, pushTexts: texts,
            usualHour: try await usualHour, globalControl: try await control)
    }

    static func pushesWithTexts(of id: Int64, source: Source) async throws
        -> ([CampaignPushOfUser], [Int64: CampaignTexts.Filled])
    {
        let pushes = try await CampaignPushOfUser.latest(userID: id, in: source.database)
        return (pushes, await pushTexts(pushes, source: source))
    }

    /// Filled as the sender fills them, with the user's values read now but their items
    /// counted from each push's own day: the nearest the panel can come, since the values a
    /// push was filled with are not kept.
    static func pushTexts(_ pushes: [CampaignPushOfUser], source: Source) async -> [Int64: CampaignTexts.Filled] {
        let texts = CampaignTexts(library: source.templates, database: source.database)
        var filled: [Int64: CampaignTexts.Filled] = [:]
        for (_, ofDay) in Dictionary(grouping: pushes, by: { $0.updatedAt.text.prefix(10) }) {
            let day = ofDay[0].updatedAt.date
            let wanted = ofDay.map {
                CampaignTexts.Wanted(
                    key: $0.deliveryID, campaignID: $0.campaignID, userID: $0.userID, title: $0.title, body: $0.body,
                    template: $0.template, variant: $0.variant ?? .a)
            }
            filled.merge(await texts.fill(wanted, now: day)) { first, _ in first }
        }
        return filled
    }
}
