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
            let sendAt = CampaignRecord.Columns.sendAt, localTime = CampaignRecord.Columns.localTime
            let due = SQLiteTime.string(now)
            if status == .scheduled { request = request.filter(localTime == nil && sendAt > due) }
            if status == .sending { request = request.filter(localTime != nil || sendAt == nil || sendAt <= due) }
        }
        return request
    }

    /// One page in creation order (`newestFirst` or not), keyset on the id, which is the
    /// creation order and unique (no ties): the primary key serves both ways, no OFFSET.
    /// The range and total are counts of `panel_campaigns`, a small panel table.
    public func page(status: CampaignShownStatus? = nil, newestFirst: Bool = true, at position: ListPosition = .first,
                     limit: Int = 50, now: Date = Date()) async throws -> CampaignListPage {
        let id = CampaignRecord.Columns.id
        let listed = Self.listed(status: status, now: now)
        return try await database.read { db in
            var entries: [CampaignRecord]
            switch position {
            case .first:
                entries = try listed.withCreator().order(newestFirst ? id.desc : id.asc).limit(limit).fetchAll(db)
            case let .after(key):
                entries = try listed.filter(newestFirst ? id < key : id > key).withCreator()
                    .order(newestFirst ? id.desc : id.asc).limit(limit).fetchAll(db)
            case let .before(key):
                // Read backwards from the key, then turn the page round.
                entries = try listed.filter(newestFirst ? id > key : id < key).withCreator()
                    .order(newestFirst ? id.asc : id.desc).limit(limit).fetchAll(db).reversed()
                // Fewer than a page before it: the first page, full.
                if entries.count < limit {
                    entries = try listed.withCreator().order(newestFirst ? id.desc : id.asc).limit(limit).fetchAll(db)
                }
            }
            let total = try listed.fetchCount(db)
            guard let first = entries.first, let last = entries.last else {
                return CampaignListPage(entries: [], previous: nil, next: nil, offset: 0, total: total)
            }
            let offset = try listed.filter(newestFirst ? id > first.id : id < first.id).fetchCount(db)
            return CampaignListPage(entries: entries, previous: offset > 0 ? first.id : nil,
                                    next: offset + entries.count < total ? last.id : nil, offset: offset, total: total)
        }
    }
}
