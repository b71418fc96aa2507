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
    /// Holdout, goal, variants B to D and the winner test.
    public var experiment = CampaignExperiment()
    /// The variant that went to the rest, once chosen; when, and by whom with which figures.
    public var winner: Winner?

    public struct Winner: Sendable, Equatable {
        public let variant: Stored<MessageVariant>
        public let at: String
        public let detail: String
    }

    /// The start of the goal's window: the planned send time, which for a campaign sent at
    /// once or at each recipient's local time is its launch.
    public var measuredFrom: Date? { schedule.plannedAt ?? launchedAt.flatMap(SQLiteTime.date) }

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
            c.audience_count, c.accepted_count, c.received_count, c.opened_count, c.name, c.ignored_receipts,
            c.holdout_percent, c.goal, c.goal_days, c.test_percent, c.winner_wait_hours, c.winner, c.winner_at, c.winner_detail
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
        // A goal this version does not know measures nothing rather than something else.
        experiment = CampaignExperiment(holdoutPercent: row["holdout_percent"], goal: (row["goal"] as String?).flatMap(CampaignGoal.init(rawValue:)),
                                        goalDays: row["goal_days"], testPercent: row["test_percent"], winnerWaitHours: row["winner_wait_hours"])
        if let variant: Stored<MessageVariant> = try row.decode(forColumn: "winner") {
            winner = Winner(variant: variant, at: row["winner_at"] ?? "", detail: row["winner_detail"] ?? "")
        }
    }

    /// Each record's variants B to D, in one read.
    static func withVariants(_ records: [CampaignRecord], in db: Database) throws -> [CampaignRecord] {
        guard !records.isEmpty else { return records }
        var byCampaign: [Int64: [VariantMessage]] = [:]
        let ids = records.map { String($0.id) }.joined(separator: ",")
        for row in try Row.fetchAll(db, sql: """
            SELECT campaign_id, variant, title, body, template FROM panel_campaign_variants WHERE campaign_id IN (\(ids)) ORDER BY campaign_id, variant
            """) {
            guard let variant = MessageVariant(rawValue: row[1]) else { continue }
            byCampaign[row[0], default: []].append(VariantMessage(variant: variant, title: row[2], body: row[3], template: row[4]))
        }
        return records.map { record in
            var record = record
            record.experiment.variants = byCampaign[record.id] ?? []
            return record
        }
    }
}

extension Campaigns {
    public func find(_ id: Int64) async throws -> CampaignRecord? {
        try await database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(CampaignRecord.Columns.selection) FROM panel_campaigns c LEFT JOIN panel_admins a ON a.id = c.created_by
                WHERE c.id = ? AND c.deleted_at IS NULL
                """, arguments: [id]).map { try CampaignRecord.withVariants([CampaignRecord(row: $0)], in: db)[0] }
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

    /// Launched campaigns whose send time lies in `from..<to`, newest first: the dashboard's.
    public func launched(from: Date, to: Date, limit: Int = 20) async throws -> [CampaignRecord] {
        try await database.read { db in
            try CampaignRecord.withVariants(Row.fetchAll(db, sql: """
                SELECT \(CampaignRecord.Columns.selection) FROM panel_campaigns c LEFT JOIN panel_admins a ON a.id = c.created_by
                WHERE c.deleted_at IS NULL AND c.status <> ? AND c.launched_at >= ? AND c.launched_at < ? ORDER BY c.launched_at DESC, c.id DESC LIMIT ?
                """, arguments: [CampaignStatus.draft, SQLiteTime.string(from), SQLiteTime.string(to), limit]).map(CampaignRecord.init), in: db)
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
