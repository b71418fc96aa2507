import AdminDomain

/// The campaigns, newest first, fifty a page.
struct CampaignListModel: PageModel {
    let entries: [CampaignRecord]
    /// The next page's cursor, when there is one.
    let nextBefore: Int64?
    static let pageSize = 50

    static func load(_ services: PanelServices, _ before: Int64?) async throws -> CampaignListModel {
        let entries = try await services.campaigns.list(before: before, limit: pageSize + 1)
        return CampaignListModel(entries: Array(entries.prefix(pageSize)),
                                 nextBefore: entries.count > pageSize ? entries[pageSize - 1].id : nil)
    }
}
