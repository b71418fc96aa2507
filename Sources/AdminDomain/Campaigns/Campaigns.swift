import Foundation
import GRDB

/// A campaign's content and audience, as composed.
public struct CampaignDraft: Sendable, Equatable {
    /// What staff call it in the list; the recipients never see it. nil: the title.
    public var name: String?
    public var title: String
    public var body: String
    public var deepLink: String?
    public var timeToLive: Int
    public var segment: CampaignSegment
    /// A template of `Templates/`: each recipient gets its variant for their language; the
    /// title and body above are then its English text, kept for the record.
    public var template: String?
    /// Pushes a second at most; nil: the providers' quota.
    public var perSecond: Int?
    public var schedule: CampaignSchedule
    /// Holdout, goal, variants and winner test: what the report measures.
    public var experiment: CampaignExperiment
    /// As scheduled, or at each user's usual hour with a control share.
    public var timing: CampaignTiming

    public init(
        title: String, body: String, deepLink: String? = nil, timeToLive: Int = 86_400,
        segment: CampaignSegment = CampaignSegment(),
        template: String? = nil, perSecond: Int? = nil, schedule: CampaignSchedule = .now, name: String? = nil,
        experiment: CampaignExperiment = CampaignExperiment(), timing: CampaignTiming = .asScheduled
    ) {
        self.name = name
        self.timing = timing
        self.experiment = experiment
        self.title = title
        self.body = body
        self.deepLink = deepLink
        self.timeToLive = timeToLive
        self.segment = segment
        self.template = template
        self.perSecond = perSecond
        self.schedule = schedule
    }
}

/// Creating and launching campaigns, each change with its audit row in one transaction.
public struct Campaigns: Sendable {
    let database: PanelDatabase
    /// Users per write transaction when the audience is frozen into deliveries: few enough
    /// that the backend never waits long for the write lock. 5,000 (about 3,900 deliveries
    /// into a table of seven indexes) held it 120–200 ms at a million users (issue 47); 1,250
    /// held it 49–63 ms; 1,000 held it 44 ms, and 50.3 ms beside an overlapping freeze. So the
    /// size is learnt as the freeze goes (`FreezeChunks.timed`).
    let chunks: FreezeChunks
    /// The campaign rules: the dispatcher's outbox checks the same frequency cap.
    public let audience: Audience
    /// For users whose timezone is not one.
    public let defaultTimeZone: String
    /// Every status change and chunk of deliveries here is published after its commit; the
    /// dispatcher and the receipt poller publish theirs on the same feed.
    public let changes: CampaignChanges

    /// - Parameter usersPerChunk: a fixed freeze chunk (tests); nil learns it.
    public init(
        database: PanelDatabase, audience: Audience = Audience(), defaultTimeZone: String = "UTC",
        usersPerChunk: Int? = nil,
        changes: CampaignChanges = CampaignChanges()
    ) {
        self.database = database
        self.changes = changes
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        chunks = usersPerChunk.map(FreezeChunks.fixed) ?? .timed
    }

    public func create(_ draft: CampaignDraft, by actor: AuditActor, now: Date = Date()) async throws -> Int64 {
        if let problem = draft.controlCharacterProblem ?? draft.timingProblem { throw CampaignError(problem) }
        return try await database.write { db in
            try Self.insert(
                draft, by: actor, action: .campaignCreated, detail: String(draft.title.prefix(200)), now: now, in: db)
        }
    }

    static func insert(
        _ draft: CampaignDraft, by actor: AuditActor, action: AuditAction, detail: String, now: Date, in db: Database,
        target: String = "campaign"
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO panel_campaigns (title, body, deep_link, ttl_seconds, segment, status,
                                             created_by, created_at, template, per_second, send_at, local_time, name)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                draft.title, draft.body, draft.deepLink, draft.timeToLive, draft.segment.storedText,
                CampaignStatus.draft,
                actor.identity?.adminID, PanelTime(now), draft.template, draft.perSecond,
                draft.schedule.plannedAt.map(PanelTime.init), draft.schedule.localTime?.description, draft.name,
            ])
        let id = db.lastInsertedRowID
        try storeExperiment(draft.experiment, of: id, in: db)
        try storeTiming(draft.timing, of: id, in: db)
        try AuditLog.insert(actor.entry(action, target: "\(target):\(id)", detail: detail), now: now, in: db)
        return id
    }

    /// The launch's first step, with its audit row: the draft becomes `materialising`, and
    /// the dispatcher service freezes its audience. Refused with a sentence when no device
    /// of its audience could get a campaign push now. `confirmed`: what the confirmation said,
    /// kept for the list beside what the freeze writes.
    public func begin(
        _ id: Int64, schedule: CampaignSchedule, by actor: AuditActor, confirmed: CampaignRecord.Confirmed? = nil,
        now: Date = Date()
    ) async throws {
        guard let campaign = try await find(id) else { throw CampaignError("there is no campaign #\(id)") }
        guard campaign.status.known == .draft else {
            throw CampaignError("campaign #\(id) is \(campaign.status), not a draft")
        }
        guard let segment = campaign.segment else {
            throw CampaignError("its segment cannot be read by this version of the panel")
        }
        guard let timing = campaign.timing else {
            throw CampaignError("its timing cannot be read by this version of the panel")
        }
        if let problem = timing.refusal(
            localTime: schedule.localTime != nil, winnerTest: campaign.experiment.hasWinnerTest)
        {
            throw CampaignError(problem)
        }
        guard try await hasReachableDevice(segment, campaign: id, now: now) else {
            let why = audience.missingProvidersSentence.map { " (\($0))" } ?? ""
            throw CampaignError(
                "no device in its audience can get a campaign push now\(why), so there would be nothing to send")
        }
        let sendAt =
            switch schedule {
            case .at(let date): PanelTime(max(date, now))
            case .now, .localTime: PanelTime(now)
            }
        let localTime: String? = if case .localTime(let time) = schedule { time.description } else { nil }
        _ = try await database.write { db in
            try CampaignTransition.launch.apply(
                to: id, by: actor, now: now, in: db,
                setting: """
                    , launched_at = \(PanelTime(now)), send_at = \(sendAt), local_time = \(localTime), \
                    confirmed_devices = \(confirmed?.devices), confirmed_held_out = \(confirmed?.heldOutUsers)
                    """)
            changes.publishOnCommit(id, in: db)
        }
    }

    /// The experiment's columns and its variants, replacing what a draft had.
    static func storeExperiment(_ experiment: CampaignExperiment, of id: Int64, in db: Database) throws {
        if let problem = experiment.problem { throw CampaignError(problem) }
        try db.execute(
            sql: """
                UPDATE panel_campaigns
                SET holdout_percent = ?, goal = ?, goal_days = ?, test_percent = ?, winner_wait_hours = ?
                WHERE id = ?
                """,
            arguments: [
                experiment.holdoutPercent, experiment.goal, experiment.goalDays, experiment.testPercent,
                experiment.winnerWaitHours, id,
            ])
        _ = try PanelCampaignVariant.filter(PanelCampaignVariant.Columns.campaignID == id).deleteAll(db)
        for variant in experiment.variants where variant.variant != .a {
            try PanelCampaignVariant(
                campaignID: id, variant: variant.variant, title: variant.title, body: variant.body,
                template: variant.template
            ).insert(db)
        }
    }

    static func storeTiming(_ timing: CampaignTiming, of id: Int64, in db: Database) throws {
        try db.execute(
            sql: "UPDATE panel_campaigns SET timing = ?, timing_control_percent = ? WHERE id = ?",
            arguments: [timing.stored, timing.controlPercent ?? CampaignTiming.defaultControlPercent, id])
    }

    /// Stops at the first reachable device: a read, however large the segment.
    func hasReachableDevice(_ segment: CampaignSegment, campaign: Int64, now: Date) async throws -> Bool {
        let sql: SQL =
            "SELECT EXISTS (SELECT 1 \(audience.from(segment, now: now)) "
            + "AND (\(audience.classification(now: now, campaign: campaign))) = 'reachable')"
        return try await database.read { db in try Bool.fetchOne(db, SQLRequest(literal: sql)) ?? false }
    }
}

extension Campaigns {
    /// Stops claiming at once: what is in flight finishes and is recorded. A campaign whose
    /// audience is still being frozen can be cancelled, not paused, so that a paused one
    /// always has its whole audience.
    public func pause(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        _ = try await database.write { db in
            try CampaignTransition.pause.apply(to: id, by: actor, now: now, in: db)
            changes.publishOnCommit(id, in: db)
        }
    }

    /// Sending goes on; a campaign whose last sends settled while it was paused finishes here.
    public func resume(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await database.write { db in
            try CampaignTransition.resume.apply(to: id, by: actor, now: now, in: db)
            try CampaignTransition.finishIfSettled(id, now: now, in: db)
            changes.publishOnCommit(id, in: db)
        }
    }

    /// Nothing more goes out; what waits becomes `cancelled`, a chunk per transaction.
    /// Returns how many had gone out.
    public func cancel(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws -> Int {
        _ = try await database.write { db in
            try CampaignTransition.cancel.apply(to: id, by: actor, now: now, in: db)
            changes.publishOnCommit(id, in: db)
        }
        try await sweepCancelled(id, now: now)
        return try await database.read { db in
            try Int.fetchOne(
                db,
                SQLRequest(
                    literal: """
                        SELECT COUNT(*) FROM panel_deliveries INDEXED BY panel_deliveries_counts
                        WHERE campaign_id = \(id) AND state IN (\(states: DeliveryState.wentOut))
                        """)) ?? 0
        }
    }

    /// A cancelled campaign's waiting deliveries become `cancelled`, 5,000 a transaction.
    func sweepCancelled(_ id: Int64, now: Date) async throws {
        let at = PanelTime(now)
        while try await database.write({ db in
            try db.execute(
                literal: """
                    UPDATE panel_deliveries SET state = \(DeliveryState.cancelled), updated_at = \(at)
                    WHERE id IN (SELECT id FROM panel_deliveries INDEXED BY panel_deliveries_due
                                 WHERE campaign_id = \(id) AND state IN (\(states: DeliveryState.waiting)) LIMIT 5000)
                    """)
            if db.changesCount > 0 { changes.publishOnCommit(id, in: db) }
            return db.changesCount
        }) > 0 {}
    }

    /// Launches a crash cut short go on from their last chunk, and cancels a crash cut
    /// short leave nothing waiting: called before the dispatcher claims anything.
    @discardableResult
    public func resumeLaunches(now: Date = Date(), stopping: @escaping @Sendable () -> Bool = { false }) async throws
        -> LaunchReport
    {
        let (pending, cancelled) = try await database.read { db in
            (
                try Int64.fetchAll(
                    db, sql: "SELECT id FROM panel_campaigns WHERE status = ? ORDER BY id",
                    arguments: [CampaignStatus.materialising]),
                try Int64.fetchAll(
                    db,
                    SQLRequest(
                        literal: """
                            SELECT id FROM panel_campaigns c WHERE status = \(CampaignStatus.cancelled) AND EXISTS (
                              SELECT 1 FROM panel_deliveries INDEXED BY panel_deliveries_due
                              WHERE campaign_id = c.id AND state IN (\(states: DeliveryState.waiting)))
                            """))
            )
        }
        for id in cancelled { try await sweepCancelled(id, now: now) }
        var report = LaunchReport()
        for id in pending where !stopping() {
            report.add(try await materialiseStored(id, now: now, stopping: stopping))
        }
        return report
    }

    /// Whether a launched audience waits to be frozen: a read, for the dispatcher's loop.
    public func hasLaunchesToFreeze() async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM panel_campaigns WHERE status = ?)",
                arguments: [CampaignStatus.materialising]) ?? false
        }
    }

    /// The campaign's stored segment, as it was at the launch (activity and the frequency
    /// cap by then).
    private func materialiseStored(_ id: Int64, now: Date, stopping: @escaping @Sendable () -> Bool = { false })
        async throws -> LaunchReport
    {
        let (stored, launchedAt) = try await database.read { db -> (String?, PanelTime?) in
            let row = try CampaignRecord.select(CampaignRecord.Columns.segment, CampaignRecord.Columns.launchedAt)
                .filter(key: id).asRequest(of: Row.self).fetchOne(db)
            return (
                row?[CampaignRecord.Columns.segment],
                try row?.decode(PanelTime?.self, forColumn: CampaignRecord.Columns.launchedAt)
            )
        }
        guard let segment = stored.flatMap(CampaignSegment.fromStoredText) else {
            _ = try await database.write { db in
                // Nothing can be frozen, so nothing was or will be sent: it ends here.
                try CampaignTransition.finish(
                    reason: "its audience cannot be read by this version of the panel: nothing was sent"
                )
                .applyIfAllowed(to: id, now: now, in: db)
                changes.publishOnCommit(id, in: db)
            }
            return LaunchReport()
        }
        return try await materialise(
            id, segment: segment, now: launchedAt?.date ?? now, stopping: stopping)
    }
}

/// What freezing an audience wrote and how long its transactions held the write lock.
public struct LaunchReport: Sendable, Equatable {
    public var deliveries = 0
    public var chunks = 0
    public var longestTransaction: Duration = .zero
    public var total: Duration = .zero
    /// A stop came between two chunks: the next start goes on.
    public var interrupted = false

    mutating func add(_ other: LaunchReport) {
        deliveries += other.deliveries
        chunks += other.chunks
        longestTransaction = max(longestTransaction, other.longestTransaction)
        total += other.total
        interrupted = interrupted || other.interrupted
    }
}
