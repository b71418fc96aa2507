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
    public let createdAt: PanelTime
    public let launchedAt: PanelTime?
    public let finishedAt: PanelTime?
    public let schedule: CampaignSchedule
    /// Running totals, for the list: deliveries frozen, accepted, and confirmed by the apps.
    public let totals: Totals
    /// Holdout, goal, variants B to D and the winner test.
    public var experiment = CampaignExperiment()
    /// nil when the stored timing is not one this version knows.
    public var timing: CampaignTiming? = .asScheduled
    /// The variant that went to the rest, once chosen; when, and by whom with which figures.
    public var winner: Winner?
    /// What the sender confirmed at the launch; nil for a draft, or a launch that confirmed
    /// nothing (the command line, or one from before the panel kept it).
    public var confirmed: Confirmed?

    /// The confirmation's count at the launch: the devices it said would be sent to, and the
    /// users it said the holdout would take. The freeze, later, may find fewer or more.
    public struct Confirmed: Sendable, Equatable {
        public let devices: Int
        public let heldOutUsers: Int

        public init(devices: Int, heldOutUsers: Int) {
            self.devices = devices
            self.heldOutUsers = heldOutUsers
        }
    }

    /// The stored status, except that a sending campaign whose planned time is still ahead is
    /// `scheduled`: derived when shown, never stored, so the dispatcher and
    /// `CampaignTransition` know nothing of it.
    public func shownStatus(now: Date = Date()) -> CampaignShownStatus? {
        guard let known = status.known else { return nil }
        if known == .sending, let planned = schedule.plannedAt, planned > now { return .scheduled }
        return CampaignShownStatus(known)
    }

    public struct Winner: Sendable, Equatable {
        public let variant: Stored<MessageVariant>
        public let at: PanelTime?
        public let detail: String
    }

    /// The start of the goal's window: the planned send time, which for a campaign sent at
    /// once or at each recipient's local time is its launch.
    public var measuredFrom: Date? { schedule.plannedAt ?? launchedAt?.date }

    public struct Totals: Sendable, Equatable {
        public let audience: Int
        public let accepted: Int
        public let received: Int
        public let opened: Int
        /// Receipts that confirmed no push that went out (never sent, cancelled): not counted.
        public var ignored: Int = 0
        /// Users of the audience the freeze left out as members of the global control group.
        public var controlUsers: Int = 0
    }

    /// What the list and headings call it.
    public var displayName: String { name.map { $0.isEmpty ? title : $0 } ?? title }
}

// In an extension, so that the memberwise initialiser stays for tests.
extension CampaignRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "panel_campaigns"

    /// `panel_campaigns`' columns. The SQL that counts, claims and freezes names them in
    /// text; these read its rows by name.
    public enum Columns {
        static let id = Column("id")
        static let kind = Column("kind")
        static let name = Column("name")
        static let title = Column("title")
        static let body = Column("body")
        static let deepLink = Column("deep_link")
        static let ttlSeconds = Column("ttl_seconds")
        static let segment = Column("segment")
        static let template = Column("template")
        static let perSecond = Column("per_second")
        static let status = Column("status")
        static let statusDetail = Column("status_detail")
        static let createdBy = Column("created_by")
        static let createdAt = Column("created_at")
        static let launchedAt = Column("launched_at")
        static let sendAt = Column("send_at")
        static let localTime = Column("local_time")
        static let finishedAt = Column("finished_at")
        static let deletedAt = Column("deleted_at")
        static let materialisedUpTo = Column("materialised_up_to")
        static let audienceCount = Column("audience_count")
        static let acceptedCount = Column("accepted_count")
        static let receivedCount = Column("received_count")
        static let openedCount = Column("opened_count")
        static let ignoredReceipts = Column("ignored_receipts")
        static let controlUsers = Column("control_users")
        static let holdoutPercent = Column("holdout_percent")
        static let goal = Column("goal")
        static let goalDays = Column("goal_days")
        static let testPercent = Column("test_percent")
        static let winnerWaitHours = Column("winner_wait_hours")
        static let winner = Column("winner")
        static let winnerAt = Column("winner_at")
        static let winnerDetail = Column("winner_detail")
        static let confirmedDevices = Column("confirmed_devices")
        static let confirmedHeldOut = Column("confirmed_held_out")
        static let timing = Column("timing")
        static let timingControlPercent = Column("timing_control_percent")
        /// Not a column of the table: the creator's email, joined from `panel_admins`.
        static let creatorEmail = Column("creator_email")
    }

    /// What a page needs; `created_by` is shown as its account's email (`withCreator()`).
    public static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.name, Columns.title, Columns.body, Columns.deepLink, Columns.ttlSeconds,
            Columns.segment, Columns.template,
            Columns.perSecond, Columns.status, Columns.statusDetail, Columns.createdAt, Columns.launchedAt,
            Columns.finishedAt,
            Columns.sendAt, Columns.localTime, Columns.audienceCount, Columns.acceptedCount, Columns.receivedCount,
            Columns.openedCount,
            Columns.ignoredReceipts, Columns.controlUsers, Columns.holdoutPercent, Columns.goal, Columns.goalDays,
            Columns.testPercent,
            Columns.winnerWaitHours,
            Columns.winner, Columns.winnerAt, Columns.winnerDetail, Columns.confirmedDevices, Columns.confirmedHeldOut,
            Columns.timing, Columns.timingControlPercent,
        ]
    }

    /// `created_by` names no foreign key in the schema: an account deleted later leaves the campaign.
    static let creator = belongsTo(Admin.self, using: ForeignKey([Columns.createdBy], to: [Admin.Columns.id]))

    public init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        title = row[Columns.title]
        body = row[Columns.body]
        deepLink = row[Columns.deepLink]
        timeToLive = row[Columns.ttlSeconds]
        segment = (row[Columns.segment] as String?).flatMap(CampaignSegment.fromStoredText)
        template = row[Columns.template]
        perSecond = row[Columns.perSecond]
        status = try row.decode(forColumn: Columns.status)
        statusDetail = row[Columns.statusDetail]
        createdBy = row[Columns.creatorEmail]
        // Decoded, not subscripted: a stamp that does not read throws instead of trapping.
        createdAt = try row.decode(forColumn: Columns.createdAt)
        launchedAt = try row.decode(forColumn: Columns.launchedAt)
        finishedAt = try row.decode(forColumn: Columns.finishedAt)
        schedule = CampaignSchedule(
            sendAt: try row.decode(forColumn: Columns.sendAt), localTime: row[Columns.localTime])
        timing = CampaignTiming(stored: row[Columns.timing], controlPercent: row[Columns.timingControlPercent])
        totals = Totals(
            audience: row[Columns.audienceCount], accepted: row[Columns.acceptedCount],
            received: row[Columns.receivedCount],
            opened: row[Columns.openedCount], ignored: row[Columns.ignoredReceipts],
            controlUsers: row[Columns.controlUsers])
        // A goal this version does not know measures nothing rather than something else.
        experiment = CampaignExperiment(
            holdoutPercent: row[Columns.holdoutPercent],
            goal: (row[Columns.goal] as String?).flatMap(CampaignGoal.init(rawValue:)),
            goalDays: row[Columns.goalDays], testPercent: row[Columns.testPercent],
            winnerWaitHours: row[Columns.winnerWaitHours])
        if let variant: Stored<MessageVariant> = try row.decode(forColumn: Columns.winner) {
            winner = Winner(
                variant: variant, at: try row.decode(forColumn: Columns.winnerAt),
                detail: row[Columns.winnerDetail] ?? "")
        }
        if let devices: Int = row[Columns.confirmedDevices] {
            confirmed = Confirmed(devices: devices, heldOutUsers: row[Columns.confirmedHeldOut] ?? 0)
        }
    }

    /// Each record's variants B to D, in one read.
    static func withVariants(_ records: [CampaignRecord], in db: Database) throws -> [CampaignRecord] {
        guard !records.isEmpty else { return records }
        var byCampaign: [Int64: [VariantMessage]] = [:]
        for variant in try PanelCampaignVariant.filter(
            records.map(\.id).contains(PanelCampaignVariant.Columns.campaignID)
        )
        .order(PanelCampaignVariant.Columns.campaignID, PanelCampaignVariant.Columns.variant).fetchAll(db) {
            byCampaign[variant.campaignID, default: []].append(variant.message)
        }
        return records.map { record in
            var record = record
            record.experiment.variants = byCampaign[record.id] ?? []
            return record
        }
    }
}

extension DerivableRequest<CampaignRecord> {
    /// Deleted drafts keep their row for the audit log's sake; no page lists them.
    func notDeleted() -> Self {
        filter(CampaignRecord.Columns.deletedAt == nil)
    }

    func withCreator() -> Self {
        annotated(
            withOptional: CampaignRecord.creator.select(
                Admin.Columns.email.forKey(CampaignRecord.Columns.creatorEmail.name)))
    }

    func launched() -> Self {
        filter(CampaignRecord.Columns.status != CampaignStatus.draft)
    }
}

extension Campaigns {
    public func find(_ id: Int64) async throws -> CampaignRecord? {
        try await database.read { db in
            try CampaignRecord.filter(key: id).notDeleted().campaignsOnly().withCreator().fetchOne(db)
                .map { try CampaignRecord.withVariants([$0], in: db)[0] }
        }
    }

    /// Newest first, `limit` at a time, before the campaign id `before`, with their
    /// running totals.
    public func list(before: Int64? = nil, status: CampaignShownStatus? = nil, limit: Int = 50, now: Date = Date())
        async throws -> [CampaignRecord]
    {
        let request = Self.listed(status: status, now: now).filter(CampaignRecord.Columns.id < (before ?? Int64.max))
        let page = request.withCreator().order(CampaignRecord.Columns.id.desc).limit(limit)
        return try await database.read { db in try page.fetchAll(db) }
    }

    /// Launched campaigns whose send time lies in `from..<to`, newest first: the dashboard's.
    public func launched(from: Date, to: Date, limit: Int = 20) async throws -> [CampaignRecord] {
        let launchedAt = CampaignRecord.Columns.launchedAt
        let request = CampaignRecord.all().notDeleted().campaignsOnly().launched()
            .filter(launchedAt >= PanelTime(from) && launchedAt < PanelTime(to))
            .withCreator().order(launchedAt.desc, CampaignRecord.Columns.id.desc).limit(limit)
        return try await database.read { db in try CampaignRecord.withVariants(request.fetchAll(db), in: db) }
    }

    /// When the latest launch of any campaign happened, read on `panel_campaigns_launched`:
    /// a count made before it may have missed what that launch holds of the frequency cap.
    public func latestLaunch() async throws -> PanelTime? {
        try await database.read { db in
            try PanelTime.fetchOne(
                db, sql: "SELECT MAX(launched_at) FROM panel_campaigns INDEXED BY panel_campaigns_launched")
        }
    }

    /// Campaigns with the same segment and title launched since `since`: sending the same
    /// thing to the same people twice in a week is usually a mistake.
    public func similarRecent(to campaign: CampaignRecord, since: Date) async throws -> [CampaignRecord] {
        guard let segment = campaign.segment else { return [] }
        let columns = CampaignRecord.Columns.self
        let request = CampaignRecord.all().launched().campaignsOnly()
            .filter(
                columns.id != campaign.id && columns.title == campaign.title && columns.segment == segment.storedText
                    && columns.launchedAt >= PanelTime(since)
            )
            .withCreator().order(columns.id.desc).limit(5)
        return try await database.read { db in try request.fetchAll(db) }
    }
}
