import AdminDomain

/// The campaigns, newest first, fifty a page, of one status when one is chosen.
struct CampaignListModel: PageModel {
    let entries: [CampaignRecord]
    /// The next page's cursor, when there is one.
    let nextBefore: Int64?
    let status: CampaignStatus?
    /// Why nothing is listed: a filter the page does not offer.
    var problem: String?
    /// What just happened, from the redirect's link.
    var notice: String?
    static let pageSize = 50

    struct Input {
        var before: Int64?
        var status: CampaignStatus?
    }

    static func load(_ campaigns: Campaigns, _ input: Input) async throws -> CampaignListModel {
        let (before, status) = (input.before, input.status)
        let entries = try await campaigns.list(before: before, status: status, limit: pageSize + 1)
        return CampaignListModel(entries: Array(entries.prefix(pageSize)),
                                 nextBefore: entries.count > pageSize ? entries[pageSize - 1].id : nil, status: status)
    }
}
