import Foundation
import GRDB

/// A page of the campaign list, in creation order either way, with where it sits.
public struct CampaignListPage: Sendable {
    public let entries: [CampaignRecord]
    /// The first campaign shown, when campaigns precede it: Previous ends before it.
    public let previous: Int64?
    /// The last campaign shown, when campaigns follow it: Next starts after it.
    public let next: Int64?
    /// How many campaigns of the list come before this page.
    public let offset: Int
    /// Every campaign of the list: exact, a count of the panel's own small table.
    public let total: Int
}

extension Campaigns {
    /// Where a page of the list starts.
    public enum ListPosition: Sendable, Equatable {
        case first
        /// After this campaign id, in the list's order (Next).
        case after(Int64)
        /// Just before this campaign id, in the list's order (Previous).
        case before(Int64)
    }

    /// The campaigns listed, of one shown status when one is given.
    static func listed(status: CampaignShownStatus?, now: Date) -> QueryInterfaceRequest<CampaignRecord> {
        var request = CampaignRecord.all().notDeleted().campaignsOnly()
        if let status {
            request = request.filter(CampaignRecord.Columns.status == status.stored)
            // `scheduled` and `sending` share the stored status: the planned time tells them apart.
            let sendAt = CampaignRecord.Columns.sendAt
            let localTime = CampaignRecord.Columns.localTime
            let due = SQLiteTime.string(now)
            if status == .scheduled { request = request.filter(localTime == nil && sendAt > due) }
            if status == .sending { request = request.filter(localTime != nil || sendAt == nil || sendAt <= due) }
        }
        return request
    }

    /// The read of one page: rows after `position` in the list's order, or, for Previous,
    /// rows before it read backwards (`backwards`: turn them round). Keyset on the id, which is
    /// the creation order and unique (no ties): the primary key serves both ways, no OFFSET.
    static func pageRequest(
        status: CampaignShownStatus?, newestFirst: Bool, at position: ListPosition, limit: Int,
        now: Date
    ) -> (request: QueryInterfaceRequest<CampaignRecord>, backwards: Bool) {
        let id = CampaignRecord.Columns.id
        let listed = Self.listed(status: status, now: now).withCreator()
        switch position {
        case .first:
            return (listed.order(newestFirst ? id.desc : id.asc).limit(limit), false)
        case .after(let key):
            return (
                listed.filter(newestFirst ? id < key : id > key).order(newestFirst ? id.desc : id.asc).limit(limit),
                false
            )
        case .before(let key):
            return (
                listed.filter(newestFirst ? id > key : id < key).order(newestFirst ? id.asc : id.desc).limit(limit),
                true
            )
        }
    }

    /// One page in creation order (`newestFirst` or not). The range and total are counts of
    /// `panel_campaigns`, a small panel table, so they are exact.
    public func page(
        status: CampaignShownStatus? = nil, newestFirst: Bool = true, at position: ListPosition = .first,
        limit: Int = 50, now: Date = Date()
    ) async throws -> CampaignListPage {
        let id = CampaignRecord.Columns.id
        let listed = Self.listed(status: status, now: now)
        return try await database.read { db in
            let (request, backwards) = Self.pageRequest(
                status: status, newestFirst: newestFirst, at: position, limit: limit, now: now)
            var entries = try request.fetchAll(db)
            if backwards {
                entries.reverse()
                // Fewer than a page before the key: the first page, full.
                if entries.count < limit {
                    entries = try Self.pageRequest(
                        status: status, newestFirst: newestFirst, at: .first, limit: limit, now: now
                    ).request.fetchAll(db)
                }
            }
            let total = try listed.fetchCount(db)
            guard let first = entries.first, let last = entries.last else {
                return CampaignListPage(entries: [], previous: nil, next: nil, offset: 0, total: total)
            }
            let offset = try listed.filter(newestFirst ? id > first.id : id < first.id).fetchCount(db)
            return CampaignListPage(
                entries: entries, previous: offset > 0 ? first.id : nil,
                next: offset + entries.count < total ? last.id : nil, offset: offset, total: total)
        }
    }
}
