import Foundation
import GRDB

/// One delivery claimed for sending: its row is already `sending` in the database.
public struct ClaimedDelivery: Sendable, Equatable {
    public let rowID: Int64
    public let campaignID: Int64
    public let deviceID: Int64
    public let userID: Int64
    /// How many tries before this one.
    public let attempt: Int
    public let token: String
    public let platform: Stored<Platform>
    public let provider: Stored<PushProvider>
    public let title: String
    public let body: String
    public let deepLink: String?
    public let timeToLive: Int
    /// The campaign's template, whose variant for the recipient's language is sent.
    public let template: String?
    /// Which of the campaign's messages this is: its title, body and template are that one's.
    public var variant: MessageVariant = .a
    /// The journey entry it is for; nil for a campaign's.
    public var entryID: Int64?

    /// What the providers see: `data.delivery_id`, the collapse id and the Android tag.
    public var deliveryID: String { "c\(campaignID)-\(rowID)" }
}

/// What became of one claimed delivery, in the domain's words (the dispatcher maps the
/// provider clients' outcome onto it).
public enum DeliveryResult: Sendable, Equatable {
    case accepted(messageID: String)
    case dead(reason: String)
    case retry(reason: String, after: Duration)
    /// Not the device's fault: the delivery waits and its campaign pauses.
    case credentials(reason: String)
    case failed(reason: String)
    case unknown(reason: String)
}

/// The campaigns' outbox in `panel_deliveries`. A row is claimed (`sending`, committed) before
/// its request goes out and recorded after, in batches; at start, rows still `sending` were
/// in flight at a crash and become `unknown`, never sent again.
public struct DeliveryOutbox: Sendable {
    public let database: PanelDatabase
    /// Its rules and frequency cap are checked again at each claim.
    let audience: Audience
    /// For users whose timezone is not one, when their quiet hours are read at a claim.
    let defaultTimeZone: String
    /// A delivery that asked to be retried this many times is failed instead.
    public static let maximumAttempts = 5

    public init(database: PanelDatabase, audience: Audience = Audience(), defaultTimeZone: String = "UTC") {
        self.database = database
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
    }

    /// Before the first claim after a start. Returns how many were in flight.
    @discardableResult
    public func recoverAfterStop(now: Date = Date()) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE panel_deliveries SET state = ?, detail = 'in flight when the panel stopped', updated_at = ?
                    WHERE state = ?
                    """, arguments: [DeliveryState.unknown, PanelTime(now), DeliveryState.sending])
            let count = db.changesCount
            // A campaign whose last deliveries were those is finished now. Not published on
            // the feed: this runs before the dispatcher's first claim, and a live page open
            // meanwhile reads afresh when its stream reaches its end and reconnects.
            for id in try Int64.fetchAll(
                db, sql: "SELECT id FROM panel_campaigns WHERE status = ?", arguments: [CampaignStatus.sending])
            {
                try CampaignTransition.finishIfSettled(id, now: now, in: db)
            }
            return count
        }
    }

    /// The campaigns being sent, with their throttle (pushes a second; nil: none of their own).
    public func sendingCampaigns() async throws -> [(id: Int64, perSecond: Int?)] {
        try await database.read { db in
            let columns = CampaignRecord.Columns.self
            return try CampaignRecord.select(columns.id, columns.perSecond).filter(
                columns.status == CampaignStatus.sending
            ).order(columns.id)
                .asRequest(of: Row.self).fetchAll(db).map { ($0[columns.id], $0[columns.perSecond]) }
        }
    }

    /// When the first waiting delivery of a sending campaign falls due: the dispatcher sleeps
    /// until then. One probe of the due index per sending campaign, never a scan.
    public func nextDue() async throws -> Date? {
        try await database.read { db in
            try String.fetchOne(
                db,
                SQLRequest(
                    literal: """
                        SELECT MIN((SELECT MIN(due_at) FROM panel_deliveries INDEXED BY panel_deliveries_due
                                    WHERE campaign_id = c.id AND state IN (\(states: DeliveryState.waiting))))
                        FROM panel_campaigns c WHERE c.status = \(CampaignStatus.sending)
                        """)
            ).flatMap(SQLiteTime.date)
        }
    }

    /// Up to `limit` due deliveries of sending campaigns (and at most `allowance[id]` of a
    /// campaign given one), marked `sending` in the same transaction. Every rule of the
    /// audience is checked again for each row as it falls due, since what held at the launch
    /// may not hold now: a closed account, push or campaign pushes turned off, a permission
    /// withdrawn, no token, a dead token, a provider without credentials here, the device now
    /// someone else's, each settles the row `excluded` with its reason, unsent; a row whose
    /// user is in their quiet hours now waits until they end; a user who has had the
    /// frequency cap's campaign pushes from other campaigns since the launch is `capped`.
    /// With nothing due (nothing sending, or all of it waiting for later) no write
    /// transaction is taken: the idle dispatcher never holds the backend's lock.
    public func claim(limit: Int, allowance: [Int64: Int]? = nil, now: Date = Date()) async throws -> [ClaimedDelivery]
    {
        try await claimBatch(limit: limit, allowance: allowance, now: now).deliveries
    }

    /// A claim, and every campaign whose rows it moved: those it claimed from, and those
    /// whose rows it settled unsent (capped, excluded, no token), which may have finished
    /// with it, or put off to the end of quiet hours; and how long its write transaction
    /// held the database's one write lock (for the benchmark).
    /// The campaigns it moved are published on `feed` when its transaction commits.
    public func claimBatch(
        limit: Int, allowance: [Int64: Int]? = nil, now: Date = Date(), publishingOn feed: CampaignChanges? = nil
    ) async throws
        -> (deliveries: [ClaimedDelivery], campaigns: Set<Int64>, lockHeld: Duration)
    {
        let at = PanelTime(now)
        let due = try await database.read { db in
            try Row.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT c.id, c.kind = \(CampaignKind.journey) AS journey FROM panel_campaigns c
                        WHERE c.status = \(CampaignStatus.sending)
                          AND EXISTS (SELECT 1 FROM panel_deliveries INDEXED BY panel_deliveries_due
                                      WHERE campaign_id = c.id
                                        AND state IN (\(states: DeliveryState.waiting))
                                        AND due_at <= \(at))
                        ORDER BY c.id
                        """)
            ).map { ($0["id"] as Int64, $0["journey"] as Bool) }
        }
        let journeys = Set(due.filter(\.1).map(\.0))
        let wanted = due.map(\.0).compactMap { id -> (Int64, Int)? in
            let allowed = allowance.map { $0[id] ?? 0 } ?? Int.max
            return allowed > 0 ? (id, allowed) : nil
        }
        guard !wanted.isEmpty else { return ([], [], .zero) }
        let capSince = SQLiteTime.string(now.addingTimeInterval(-audience.capWindow))
        let cap = audience.frequencyCap
        let rules = audience.classification(now: now, withCap: false)
        let defaultZone = defaultTimeZone
        // Campaign by campaign on (campaign_id, due_at): rows of a paused campaign are never
        // walked past, however many wait. Each row's user, settings and device are read by
        // their keys and classified by the same rules as the preview and the freeze (a device
        // that changed hands counts as gone); `quiet_until` is now, or the end of the user's
        // quiet hours when now is inside them. Read before the write transaction, milliseconds
        // before the request goes out, so that the backend never waits on these joins; the
        // write then moves only rows still waiting, and checks the cap inside the lock.
        let candidates = try await database.read { db in
            // Its values are bound per campaign on the cached statement.
            let statement = try db.cachedStatement(
                literal: """
                    SELECT q.id, q.campaign_id, q.device_id, q.user_id, q.attempts, q.variant, q.entry_id,
                           d.platform, d.push_provider, d.push_token,
                           CASE WHEN d.id IS NOT NULL AND d.user_id IS NOT q.user_id
                             THEN '\(sql: Exclusion.noDevice.rawValue)' ELSE (\(rules)) END AS rule,
                           panel_due_at(:at, u.timezone, s.quiet_start, s.quiet_end, NULL, :defaultZone) AS quiet_until
                    FROM panel_deliveries q INDEXED BY panel_deliveries_due
                    LEFT JOIN users u ON u.id = q.user_id
                    LEFT JOIN devices d ON d.id = q.device_id
                    LEFT JOIN notification_settings s ON s.user_id = q.user_id
                    WHERE q.campaign_id = :campaign
                      AND q.state IN (\(states: DeliveryState.waiting))
                      AND q.due_at <= :at
                    ORDER BY q.due_at
                    LIMIT :limit
                    """)
            return try wanted.map { campaign, allowed in
                var found = try Row.fetchAll(
                    statement,
                    arguments: [
                        "campaign": campaign, "at": at, "limit": min(limit, allowed), "defaultZone": defaultZone,
                    ]
                )
                .map(ClaimCandidate.init)
                // A journey's own rules, for the rows the audience's let through.
                if journeys.contains(campaign) {
                    let exits = try JourneyClaimCheck.exits(
                        for: found.filter { $0.rule == .reachable }.map { ($0.id, $0.entryID) },
                        journey: campaign, now: now, in: db)
                    for index in found.indices { found[index].journeyExit = exits[found[index].id] }
                }
                return (campaign, found)
            }
        }
        return try await database.write { db in
            let began = ContinuousClock.now
            // Campaigns by their pushes' rows; journeys by their sent entries, each push once
            // (the row's own entry aside), since a re-entered journey pushes again.
            let capCount = try db.cachedStatement(
                literal: """
                    SELECT COUNT(DISTINCT k) FROM (
                      SELECT campaign_id AS k FROM panel_deliveries INDEXED BY panel_deliveries_cap
                      WHERE user_id = :user AND updated_at >= :since AND state IN (\(states: DeliveryState.wentOut))
                        AND campaign_id <> :campaign
                        AND NOT EXISTS (SELECT 1 FROM panel_campaigns j
                                         WHERE j.id = campaign_id AND j.kind = \(sql: CampaignKind.journey.sqlLiteral))
                      UNION ALL
                      SELECT 'entry ' || id FROM panel_journey_entries INDEXED BY panel_journey_entries_sent
                      WHERE user_id = :user AND state = 'sent' AND settled_at >= :since AND id IS NOT :entry)
                    """)
            let sentEntry = try db.cachedStatement(
                sql:
                    "UPDATE panel_journey_entries SET state = 'sent', settled_at = ? WHERE id = ? AND state = 'entered'"
            )
            // Only a row still waiting moves: one cancelled, claimed or settled since the read stays as it is.
            let move = try db.cachedStatement(
                literal: """
                    UPDATE panel_deliveries
                    SET state = ?, attempts = attempts + ?, detail = COALESCE(?, detail), updated_at = ?
                    WHERE id = ? AND state IN (\(states: DeliveryState.waiting))
                    """)
            let putOff = try db.cachedStatement(
                literal: """
                    UPDATE panel_deliveries SET due_at = ?, detail = ?, updated_at = ?
                    WHERE id = ? AND state IN (\(states: DeliveryState.waiting))
                    """)
            let message = CampaignRecord.Columns.self
            var rows: [ClaimCandidate] = []
            var settledUnsent: Set<Int64> = []
            var putOffCampaigns: Set<Int64> = []
            var entries = JourneyClaimEntries(at: at)
            for (campaign, found) in candidates where rows.count < limit {
                guard
                    try Stored<CampaignStatus>.fetchOne(
                        db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [campaign])?.known
                        == .sending
                else { continue }
                for row in found where rows.count < limit {
                    var decision = ClaimDecision.beforeCap(
                        rule: row.rule, journeyExit: row.journeyExit, quietUntil: row.quietUntil, now: at)
                    if decision == nil {
                        // One at a time, so that a user's row in one campaign sees the row of
                        // another campaign this same claim already took.
                        let others =
                            try Int.fetchOne(
                                capCount,
                                arguments: [
                                    "user": row.userID, "since": capSince, "campaign": campaign, "entry": row.entryID,
                                ]) ?? 0
                        decision = ClaimDecision.capped(others: others, cap: cap)
                    }
                    switch decision ?? .send {
                    case .exclude(let exclusion):
                        try move.execute(arguments: [
                            DeliveryState.excluded, 0, "no longer in the audience when due: \(exclusion.label)", at,
                            row.id,
                        ])
                        if db.changesCount > 0 { settledUnsent.insert(campaign) }
                        entries.unsent(row, reason: exclusion.rawValue, state: .exited)
                    case .exitJourney(let exit):
                        try move.execute(arguments: [DeliveryState.excluded, 0, "journey: \(exit.detail)", at, row.id])
                        if db.changesCount > 0 { settledUnsent.insert(campaign) }
                        switch exit {
                        case .entrySettled: break
                        case .expired: entries.unsent(row, reason: nil, state: .expired, userWide: true)
                        case .exit(let why): entries.unsent(row, reason: why.rawValue, state: .exited, userWide: true)
                        }
                    case .putOff(let until):
                        try putOff.execute(arguments: [
                            until, "put off to the end of the user's quiet hours", at, row.id,
                        ])
                        if db.changesCount > 0 { putOffCampaigns.insert(campaign) }
                    case .cap(let others):
                        try move.execute(arguments: [
                            DeliveryState.capped, 0, "frequency cap: \(others) campaign pushes in the window", at,
                            row.id,
                        ])
                        if db.changesCount > 0 { settledUnsent.insert(campaign) }
                        entries.unsent(row, reason: Exclusion.frequencyCap.rawValue, state: .capped)
                    case .send:
                        try move.execute(arguments: [DeliveryState.sending, 1, nil, at, row.id])
                        if db.changesCount > 0 {
                            rows.append(row)
                            // At once: a row of this user further on in this claim counts it.
                            if let entry = row.entryID { try sentEntry.execute(arguments: [at, entry]) }
                        }
                    }
                }
            }
            var claimed: [ClaimedDelivery] = []
            var content: [String: Row] = [:]
            for row in rows {
                // A delivery without a variant is the campaign's own message (launched before variants).
                let variant = row.variant.flatMap(MessageVariant.init(rawValue:)) ?? .a
                let key = "\(row.campaignID)/\(variant.rawValue)"
                if content[key] == nil {
                    content[key] = try Row.fetchOne(
                        db,
                        sql: variant == .a
                            ? "SELECT title, body, deep_link, ttl_seconds, template FROM panel_campaigns WHERE id = ?"
                            : """
                            SELECT v.title, v.body, c.deep_link, c.ttl_seconds, v.template FROM panel_campaigns c
                            JOIN panel_campaign_variants v ON v.campaign_id = c.id AND v.variant = ? WHERE c.id = ?
                            """, arguments: variant == .a ? [row.campaignID] : [variant, row.campaignID])
                }
                // The device as the rules read it, just before this transaction.
                guard let campaign = content[key], let token = row.token, !token.isEmpty, let platform = row.platform,
                    let provider = row.provider
                else {
                    try db.execute(
                        sql:
                            "UPDATE panel_deliveries SET state = ?, detail = 'the device has no push token any more', "
                            + "updated_at = ? WHERE id = ?",
                        arguments: [DeliveryState.failed, at, row.id])
                    settledUnsent.insert(row.campaignID)
                    continue
                }
                claimed.append(
                    ClaimedDelivery(
                        rowID: row.id, campaignID: row.campaignID, deviceID: row.deviceID, userID: row.userID,
                        attempt: row.attempts, token: token,
                        platform: platform, provider: provider,
                        title: campaign[message.title], body: campaign[message.body],
                        deepLink: campaign[message.deepLink], timeToLive: campaign[message.ttlSeconds],
                        template: campaign[message.template],
                        variant: variant, entryID: row.entryID))
            }
            try entries.write(sent: claimed, in: db)
            // The last of a campaign may have settled here, unsent.
            for campaign in settledUnsent { try CampaignTransition.finishIfSettled(campaign, now: now, in: db) }
            let moved = settledUnsent.union(putOffCampaigns).union(claimed.map(\.campaignID))
            feed?.publishOnCommit(moved, in: db)
            return (claimed, moved, ContinuousClock.now - began)
        }
    }

    /// Outcomes of claimed deliveries, in one transaction; campaigns with nothing left to
    /// send finish, and a credentials problem pauses its campaign with the reason. Their
    /// campaigns are published on `feed` when it commits.
    public func record(
        _ results: [(ClaimedDelivery, DeliveryResult)], now: Date = Date(), publishingOn feed: CampaignChanges? = nil
    ) async throws {
        guard !results.isEmpty else { return }
        let at = PanelTime(now)
        try await database.write { db in
            let update = try db.cachedStatement(
                sql: """
                    UPDATE panel_deliveries
                    SET state = ?, detail = ?, message_id = ?, due_at = COALESCE(?, due_at), updated_at = ?
                    WHERE id = ?
                    """)
            var dead: [DeadTokens.Entry] = []
            for (delivery, result) in results {
                let (state, detail, messageID, dueAt) = Self.row(for: result, delivery: delivery, now: now)
                try update.execute(arguments: [
                    state, detail.map { String($0.prefix(300)) }, messageID, dueAt, at, delivery.rowID,
                ])
                if case .dead(let reason) = result {
                    dead.append(
                        .init(
                            token: delivery.token, deviceID: delivery.deviceID, provider: delivery.provider.storedText,
                            reason: reason))
                }
                if case .credentials(let reason) = result {
                    try CampaignTransition.stop(reason: "stopped: \(reason)").applyIfAllowed(
                        to: delivery.campaignID, now: now, in: db)
                    // Never sent: a journey's entry waits again, and is exited with its paused journey.
                    if let entry = delivery.entryID {
                        try db.execute(
                            sql:
                                "UPDATE panel_journey_entries SET state = 'entered', settled_at = NULL "
                                + "WHERE id = ? AND state = 'sent'",
                            arguments: [entry])
                    }
                }
            }
            try DeadTokens.record(dead, now: now, in: db)
            var accepted: [Int64: Int] = [:]
            for (delivery, result) in results {
                if case .accepted = result { accepted[delivery.campaignID, default: 0] += 1 }
            }
            for (campaign, count) in accepted {
                try db.execute(
                    sql: "UPDATE panel_campaigns SET accepted_count = accepted_count + ? WHERE id = ?",
                    arguments: [count, campaign])
            }
            for campaign in Set(results.map(\.0.campaignID)) {
                try CampaignTransition.finishIfSettled(campaign, now: now, in: db)
            }
            feed?.publishOnCommit(results.map(\.0.campaignID), in: db)
        }
    }

    private static func row(for result: DeliveryResult, delivery: ClaimedDelivery, now: Date)
        -> (state: DeliveryState, detail: String?, messageID: String?, dueAt: PanelTime?)
    {
        switch result {
        case .accepted(let id): return (.accepted, nil, id, nil)
        case .dead(let reason): return (.dead, reason, nil, nil)
        case .failed(let reason): return (.failed, reason, nil, nil)
        case .unknown(let reason): return (.unknown, reason, nil, nil)
        case .credentials(let reason):
            // Never sent: it waits for the campaign to be resumed.
            return (.queued, reason, nil, nil)
        case .retry(let reason, let after):
            if delivery.attempt + 1 >= maximumAttempts {
                return (.failed, "gave up after \(maximumAttempts) tries: \(reason)", nil, nil)
            }
            return (
                .retry, reason, nil, PanelTime(now.addingTimeInterval(TimeInterval(after.components.seconds)))
            )
        }
    }

    /// Deliveries of one campaign by state, for its status page.
    public func counts(campaign id: Int64) async throws -> [DeliveryState: Int] {
        try await database.read { db in
            var counts: [DeliveryState: Int] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT state, COUNT(*) AS count
                    FROM panel_deliveries INDEXED BY panel_deliveries_counts
                    WHERE campaign_id = ?
                    GROUP BY state
                    """, arguments: [id])
            {
                if let state = DeliveryState(rawValue: row[PanelDelivery.Columns.state]) {
                    counts[state] = row["count"]
                }
            }
            return counts
        }
    }
}

/// A due delivery as the claim's read found it: its row, its device, the first rule of the
/// audience that no longer holds (`reachable` when all do) and the end of its user's quiet
/// hours (now when outside them).
struct ClaimCandidate: Sendable {
    let id, campaignID, deviceID, userID: Int64
    let attempts: Int
    let variant, token: String?
    let platform: Stored<Platform>?
    let provider: Stored<PushProvider>?
    let rule: ClaimRule
    let quietUntil: String?
    /// The journey entry this delivery is for (nil for a campaign's).
    let entryID: Int64?
    /// Why a journey's own rules stop it now, when they do.
    var journeyExit: JourneyClaimExit?

    /// Read by name: a look-up among a dozen columns, nothing beside the claim's writes.
    init(_ row: Row) throws {
        let delivery = PanelDelivery.Columns.self
        id = row[delivery.id]
        campaignID = row[delivery.campaignID]
        deviceID = row[delivery.deviceID]
        userID = row[delivery.userID]
        attempts = row[delivery.attempts]
        variant = row[delivery.variant]
        token = try row.decode(String?.self, forColumn: "push_token")
        platform = try row.decode(Stored<Platform>?.self, forColumn: "platform")
        provider = try row.decode(Stored<PushProvider>?.self, forColumn: "push_provider")
        rule = try ClaimRule(stored: row["rule"])
        quietUntil = row["quiet_until"]
        entryID = row[delivery.entryID]
    }
}
