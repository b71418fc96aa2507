import AdminDomain
import Foundation

/// The campaigns, newest first, fifty a page, of one status when one is chosen.
struct CampaignListModel: PageModel {
    let entries: [CampaignRecord]
    /// The next page's cursor, when there is one.
    let nextBefore: Int64?
    let status: CampaignShownStatus?
    /// Why nothing is listed: a filter the page does not offer.
    var problem: String?
    /// What just happened, from the redirect's link.
    var notice: String?
    /// When the list was read: a sending campaign whose planned time is after it is shown as scheduled.
    var now = Date()
    static let pageSize = 50

    struct Input {
        var before: Int64?
        var status: CampaignShownStatus?
    }

    static func load(_ campaigns: Campaigns, _ input: Input) async throws -> CampaignListModel {
        let (before, status, now) = (input.before, input.status, Date())
        let entries = try await campaigns.list(before: before, status: status, limit: pageSize + 1, now: now)
        return CampaignListModel(entries: Array(entries.prefix(pageSize)),
                                 nextBefore: entries.count > pageSize ? entries[pageSize - 1].id : nil, status: status, now: now)
    }
}
