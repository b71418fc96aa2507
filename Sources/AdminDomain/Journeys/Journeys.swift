import Foundation
import GRDB

/// Creating, editing and moving journeys, each change with its audit row in one transaction,
/// called the same way by the pages and the command line. A journey is a `panel_campaigns`
/// row of kind 'journey' (its message, conditions, holdout and goal) with its rules in
/// `panel_journeys`: the outbox, the dispatcher, the throttles, the frequency cap, dead
/// tokens and receipts serve it as they serve campaigns.
public struct Journeys: Sendable {
    public let database: PanelDatabase
    public let audience: Audience
    public let defaultTimeZone: String
    public let changes: CampaignChanges

    public init(
        database: PanelDatabase, audience: Audience = Audience(), defaultTimeZone: String = "UTC",
        changes: CampaignChanges = CampaignChanges()
    ) {
        self.database = database
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        self.changes = changes
    }

    public init(campaigns: Campaigns) {
        self.init(
            database: campaigns.database, audience: campaigns.audience, defaultTimeZone: campaigns.defaultTimeZone,
            changes: campaigns.changes)
    }

    public func create(_ draft: JourneyDraft, by actor: AuditActor, now: Date = Date()) async throws -> Int64 {
        try Self.check(draft)
        return try await database.write { db in
            let id = try Campaigns.insert(
                draft.campaign, by: actor, action: .journeyCreated,
                detail: String(draft.campaign.displayTitle.prefix(200)),
                now: now, in: db, target: "journey")
            try db.execute(
                sql: "UPDATE panel_campaigns SET kind = ?, send_at = NULL, local_time = NULL WHERE id = ?",
                arguments: [CampaignKind.journey, id])
            try db.execute(
                sql:
                    "INSERT INTO panel_journeys (campaign_id, trigger, trigger_days, send_at) "
                    + "VALUES (?, 'inactive_days', 30, 'daily_time')",
                arguments: [id])
            try Self.storeRules(draft.rules, of: id, in: db)
            return id
        }
    }

    /// Only a draft: once active, what it sent is measured against what it said.
    public func edit(_ id: Int64, to draft: JourneyDraft, by actor: AuditActor, now: Date = Date()) async throws {
        try Self.check(draft)
        try await database.write { db in
            try Self.require(id, in: [.draft], doing: "edited", in: db)
            let content = draft.campaign
            try db.execute(
                sql: """
                    UPDATE panel_campaigns
                    SET title = ?, body = ?, deep_link = ?, ttl_seconds = ?, segment = ?, template = ?, per_second = ?,
                        name = ?
                    WHERE id = ?
                    """,
                arguments: [
                    content.title, content.body, content.deepLink, content.timeToLive, content.segment.storedText,
                    content.template,
                    content.perSecond, content.name, id,
                ])
            try Campaigns.storeExperiment(content.experiment, of: id, in: db)
            try Campaigns.storeTiming(content.timing, of: id, in: db)
            try Self.storeRules(draft.rules, of: id, in: db)
            try AuditLog.insert(
                actor.entry(.journeyEdited, target: "journey:\(id)", detail: String(content.displayTitle.prefix(200))),
                now: now, in: db)
        }
    }

    /// A draft only; its row stays, marked, so that the audit log's id names nothing else.
    public func delete(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await database.write { db in
            try Self.require(id, in: [.draft], doing: "deleted", in: db)
            try db.execute(
                sql: "UPDATE panel_campaigns SET deleted_at = ? WHERE id = ?", arguments: [PanelTime(now), id])
            try AuditLog.insert(actor.entry(.journeyDeleted, target: "journey:\(id)", detail: nil), now: now, in: db)
        }
    }

    public func find(_ id: Int64) async throws -> JourneyRecord? {
        try await database.read { db in try Self.records(CampaignRecord.filter(key: id), in: db).first }
    }

    /// Newest first.
    public func list(limit: Int = 100) async throws -> [JourneyRecord] {
        try await database.read { db in
            try Self.records(CampaignRecord.all().order(CampaignRecord.Columns.id.desc).limit(limit), in: db)
        }
    }

    static func records(_ request: QueryInterfaceRequest<CampaignRecord>, in db: Database) throws -> [JourneyRecord] {
        let campaigns = try CampaignRecord.withVariants(
            request.notDeleted().journeys().withCreator().fetchAll(db), in: db)
        return try campaigns.compactMap { campaign in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM panel_journeys WHERE campaign_id = ?", arguments: [campaign.id])
            else { return nil }
            return JourneyRecord(
                campaign: campaign, rules: JourneyRecord.rules(from: row), entered: row["entered_count"],
                evaluatedUntil: row["evaluated_until"])
        }
    }

    // MARK: status

    /// Draft to active. Refused while a provider its devices would need has no credentials
    /// here, and for rules or conditions this version cannot read. Entries begin with the
    /// crossings after now.
    public func activate(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        guard let journey = try await find(id) else { throw CampaignError("there is no journey #\(id)") }
        guard journey.rules != nil, let segment = journey.campaign.segment else {
            throw CampaignError("journey #\(id)'s rules cannot be read by this version of the panel")
        }
        if let missing = neededMissingProviders(segment) {
            throw CampaignError("journey #\(id) cannot be activated: \(missing)")
        }
        try await move(
            id, .activate, by: actor, now: now, setting: ", launched_at = COALESCE(launched_at, \(PanelTime(now)))"
        ) { db in
            try db.execute(
                sql: "UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ?",
                arguments: [Int64(now.timeIntervalSince1970.rounded(.down)), id])
        }
    }

    /// Active to paused: nothing more enters or is sent; what waited is exited, "paused".
    public func pause(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await move(id, .pause, by: actor, now: now)
        try await exitWaiting(of: id, reason: .journeyPaused, now: now)
    }

    /// Paused to active: entries begin again with the crossings after now, not those of the pause.
    public func resume(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        guard let journey = try await find(id), let segment = journey.campaign.segment else {
            throw CampaignError("there is no journey #\(id)")
        }
        if let missing = neededMissingProviders(segment) {
            throw CampaignError("journey #\(id) cannot be resumed: \(missing)")
        }
        try await move(id, .resume, by: actor, now: now) { db in
            try db.execute(
                sql:
                    "UPDATE panel_journeys SET evaluated_until = MAX(COALESCE(evaluated_until, 0), ?) "
                    + "WHERE campaign_id = ?",
                arguments: [Int64(now.timeIntervalSince1970.rounded(.down)), id])
        }
    }

    /// Active or paused to ended, for good.
    public func end(_ id: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await move(id, .end, by: actor, now: now)
        try await exitWaiting(of: id, reason: .journeyEnded, now: now)
    }

    /// Entries still waiting for their push, with their deliveries, exited with `reason`, a
    /// thousand per short transaction. Also run by the service for every paused or ended
    /// journey, so that a stop between the move and this leaves nothing to be sent.
    @discardableResult
    public func exitWaiting(of id: Int64, reason: JourneyExit, now: Date = Date()) async throws -> Int {
        var total = 0
        let at = PanelTime(now)
        while true {
            let count = try await database.write { db -> Int in
                let ids = try Int64.fetchAll(
                    db,
                    SQLRequest(
                        literal: """
                            SELECT id FROM panel_journey_entries INDEXED BY panel_journey_entries_user
                            WHERE journey_id = \(id) AND state = \(entry: .entered)
                            LIMIT 1000
                            """))
                guard !ids.isEmpty else { return 0 }
                try JourneyEntries.settle(ids, state: .exited, detail: reason.rawValue, at: at, in: db)
                changes.publishOnCommit(id, in: db)
                return ids.count
            }
            total += count
            if count < 1_000 { break }
        }
        // And rows still waiting of entries already sent (another device, a retry): never sent now.
        while true {
            let count = try await database.write { db -> Int in
                try db.execute(
                    literal: """
                        UPDATE panel_deliveries
                        SET state = \(DeliveryState.cancelled), detail = \("journey entry exited: \(reason.label)"), updated_at = \(at)
                        WHERE id IN (SELECT id FROM panel_deliveries INDEXED BY panel_deliveries_due
                                     WHERE campaign_id = \(id) AND state IN (\(states: DeliveryState.waiting))
                                     LIMIT 1000)
                        """)
                if db.changesCount > 0 { changes.publishOnCommit(id, in: db) }
                return db.changesCount
            }
            total += count
            if count < 1_000 { break }
        }
        return total
    }

    /// The sentence naming a provider this journey's devices need and the server lacks.
    /// Android devices go through FCM; iOS devices through APNs or FCM.
    func neededMissingProviders(_ segment: CampaignSegment) -> String? {
        let missing = audience.missingProviders
        if missing.isEmpty { return nil }
        if segment.platform == .android, !missing.contains(.fcm) { return nil }
        return audience.missingProvidersSentence
    }

    private func move(
        _ id: Int64, _ transition: JourneyTransition, by actor: AuditActor, now: Date, setting extra: SQL = "",
        then: @escaping @Sendable (Database) throws -> Void = { _ in }
    ) async throws {
        try await database.write { db in
            try transition.apply(to: id, by: actor, now: now, in: db, setting: extra)
            try then(db)
            changes.publishOnCommit(id, in: db)
        }
    }

    @discardableResult
    static func require(_ id: Int64, in allowed: Set<CampaignStatus>, doing: String, in db: Database) throws
        -> CampaignStatus
    {
        let stored = try storedStatus(of: id, in: db)
        guard let known = stored.known, allowed.contains(known) else {
            throw CampaignError("journey #\(id) is \(shown(stored)), and only a draft can be \(doing)")
        }
        return known
    }

    /// The journey's status as stored; a deleted or missing journey, or a campaign, is none.
    static func storedStatus(of id: Int64, in db: Database) throws -> Stored<CampaignStatus> {
        guard
            let stored = try Stored<CampaignStatus>.fetchOne(
                db,
                sql: """
                    SELECT status FROM panel_campaigns WHERE id = ? AND kind = ? AND deleted_at IS NULL
                    """, arguments: [id, CampaignKind.journey])
        else { throw CampaignError("there is no journey #\(id)") }
        return stored
    }

    /// A stored status in the journeys' words ("active", not the campaign's "sending").
    static func shown(_ stored: Stored<CampaignStatus>) -> String {
        stored.known.flatMap(JourneyStatus.init)?.rawValue ?? stored.description
    }

    static func check(_ draft: JourneyDraft) throws {
        if let problem = draft.campaign.controlCharacterProblem ?? draft.rules.refusal
            ?? draft.campaign.timing.refusal(localTime: false, winnerTest: false)
        {
            throw CampaignError(problem)
        }
        if draft.campaign.experiment.holdoutPercent > 50 {
            throw CampaignError("A journey's holdout must be from 0 to 50 percent.")
        }
        // Its variants are drawn per entry for as long as it runs: there is no test share to wait on.
        if draft.campaign.experiment.testPercent != nil {
            throw CampaignError("A journey has no winner test: its variants are drawn per entry throughout.")
        }
    }

    static func storeRules(_ rules: JourneyRules, of id: Int64, in db: Database) throws {
        var from: Int?
        var to: Int?
        if case .window(let start, let end) = rules.sendAt { (from, to) = (start, end) }
        try db.execute(
            sql: """
                UPDATE panel_journeys
                SET trigger = ?, trigger_days = ?, fewer_items = ?, send_at = ?, window_from = ?, window_to = ?,
                    reentry_days = ?, daily_limit = ?
                WHERE campaign_id = ?
                """,
            arguments: [
                rules.trigger.stored, rules.trigger.days, rules.trigger.fewerItems, rules.sendAt.stored, from, to,
                rules.reentryDays, rules.dailyLimit, id,
            ])
    }
}

extension CampaignDraft {
    /// The name staff gave it, else its title.
    var displayTitle: String { name.map { $0.isEmpty ? title : $0 } ?? title }
}

extension DerivableRequest<CampaignRecord> {
    func journeys() -> Self { filter(CampaignRecord.Columns.kind == CampaignKind.journey) }
    func campaignsOnly() -> Self { filter(CampaignRecord.Columns.kind == CampaignKind.campaign) }
}
