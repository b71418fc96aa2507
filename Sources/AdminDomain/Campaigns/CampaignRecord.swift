import Foundation
import GRDB

/// A campaign as stored, for its pages.
public struct CampaignRecord: Sendable, Equatable, Identifiable {
    public let id: Int64
    /// The internal name staff gave it, or nil: the title stands for it.
    public let name: String?
    public let title: String
    public let body: String
    public let deepLink: String?
    public let timeToLive: Int
    /// nil when the stored segment no longer reads (a newer panel wrote it).
    public let segment: CampaignSegment?
    public let template: String?
    public let perSecond: Int?
    public let status: Stored<CampaignStatus>
    public let statusDetail: String?
    public let createdBy: String?
    public let createdAt: String
    public let launchedAt: String?
    public let finishedAt: String?
    public let schedule: CampaignSchedule
    /// Running totals, for the list: deliveries frozen, accepted, and confirmed by the apps.
    public let totals: Totals

    public struct Totals: Sendable, Equatable {
        public let audience: Int
        public let accepted: Int
        public let received: Int
        public let opened: Int
        /// Receipts that confirmed no push that went out (never sent, cancelled): not counted.
        public var ignored: Int = 0
    }

    /// What the list and headings call it.
    public var displayName: String { name.map { $0.isEmpty ? title : $0 } ?? title }

    enum Columns {
        static let selection = """
            c.id, c.title, c.body, c.deep_link, c.ttl_seconds, c.segment, c.template, c.per_second, c.status, c.status_detail,
            a.email AS created_by, c.created_at, c.launched_at, c.finished_at, c.send_at, c.local_time,
            c.audience_count, c.accepted_count, c.received_count, c.opened_count, c.name, c.ignored_receipts
            """
    }
}

// In an extension, so that the memberwise initialiser stays for tests.
extension CampaignRecord {
    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        title = row["title"]
        body = row["body"]
        deepLink = row["deep_link"]
        timeToLive = row["ttl_seconds"]
        segment = (row["segment"] as String?).flatMap(CampaignSegment.fromStoredText)
        template = row["template"]
        perSecond = row["per_second"]
        status = try row.decode(forColumn: "status")
        statusDetail = row["status_detail"]
        createdBy = row["created_by"]
        createdAt = row["created_at"]
        launchedAt = row["launched_at"]
        finishedAt = row["finished_at"]
        schedule = CampaignSchedule(sendAt: row["send_at"], localTime: row["local_time"])
        totals = Totals(audience: row["audience_count"], accepted: row["accepted_count"], received: row["received_count"], opened: row["opened_count"],
                        ignored: row["ignored_receipts"])
    }
}

extension Campaigns {
    public func find(_ id: Int64) async throws -> CampaignRecord? {
        try await database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(CampaignRecord.Columns.selection) FROM panel_campaigns c LEFT JOIN panel_admins a ON a.id = c.created_by
                WHERE c.id = ? AND c.deleted_at IS NULL
                """, arguments: [id]).map(CampaignRecord.init)
        }
    }

    /// Newest first, `limit` at a time, before the campaign id `before`, with their
    /// running totals.
    public func list(before: Int64? = nil, status: CampaignStatus? = nil, limit: Int = 50) async throws -> [CampaignRecord] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(CampaignRecord.Columns.selection) FROM panel_campaigns c LEFT JOIN panel_admins a ON a.id = c.created_by
                WHERE c.id < ? AND c.deleted_at IS NULL AND (? IS NULL OR c.status = ?) ORDER BY c.id DESC LIMIT ?
                """, arguments: [before ?? Int64.max, status, status, limit]).map(CampaignRecord.init)
        }
    }

    /// Campaigns with the same segment and title launched since `since`: sending the same
    /// thing to the same people twice in a week is usually a mistake.
    public func similarRecent(to campaign: CampaignRecord, since: Date) async throws -> [CampaignRecord] {
        guard let segment = campaign.segment else { return [] }
        return try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(CampaignRecord.Columns.selection) FROM panel_campaigns c LEFT JOIN panel_admins a ON a.id = c.created_by
                WHERE c.id <> ? AND c.title = ? AND c.segment = ? AND c.launched_at >= ? AND c.status <> ?
                ORDER BY c.id DESC LIMIT 5
                """, arguments: [campaign.id, campaign.title, segment.storedText, SQLiteTime.string(since), CampaignStatus.draft]).map(CampaignRecord.init)
        }
    }
}
