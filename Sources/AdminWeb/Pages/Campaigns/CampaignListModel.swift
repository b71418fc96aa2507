import AdminDomain
import Foundation

/// The campaigns in creation order (newest first unless asked), fifty a page, of one status
/// when one is chosen, with Previous, Next and "N–M of T".
struct CampaignListModel: PageModel {
    let entries: [CampaignRecord]
    /// The previous page ends before this id; nil on the first page.
    var previousBefore: Int64?
    /// The next page's cursor, when there is one.
    let nextAfter: Int64?
    let status: CampaignShownStatus?
    /// Which way the "Created" column runs.
    var order: SortOrder = .descending
    /// How many campaigns precede the page, and how many the list holds (exact: a small panel table).
    var offset = 0
    var total = 0
    /// Why nothing is listed: a filter the page does not offer.
    var problem: String?
    /// What just happened, from the redirect's link.
    var notice: String?
    /// When the list was read: a sending campaign whose planned time is after it is shown as scheduled.
    var now = Date()
    /// What each listed campaign's pushes cost, once any reading was made.
    var costs: [Int64: PushCost] = [:]
    /// How long after a push consent is read again, as the column's heading says.
    var consentWindow: TimeInterval = ConsentReadings.window
    static let pageSize = 50

    /// The one sortable column: creation order, which the primary key serves both ways.
    static let sortKeys = ["created"]

    struct Input {
        var before: Int64?
        var status: CampaignShownStatus?
        var after: Int64?
        var order: SortOrder = .descending
    }

    static func load(_ campaigns: Campaigns, _ input: Input) async throws -> CampaignListModel {
        let now = Date()
        let position: Campaigns.ListPosition =
            if let after = input.after { .after(after) } else if let before = input.before { .before(before) } else {
                .first
            }
        let page = try await campaigns.page(
            status: input.status, newestFirst: input.order == .descending, at: position, limit: pageSize, now: now)
        return CampaignListModel(
            entries: page.entries, previousBefore: page.previous, nextAfter: page.next, status: input.status,
            order: input.order, offset: page.offset, total: page.total, now: now,
            costs: try await campaigns.costs(page.entries.map(\.id)))
    }
}
