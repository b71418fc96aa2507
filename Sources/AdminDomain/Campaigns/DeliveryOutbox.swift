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
    /// In three steps (docs/architecture.md, "The claim"): one read of each due row's
    /// snapshot (`ClaimSnapshot`), a typed decision for each from it alone (`ClaimDecider`),
    /// and one short write (`ClaimWrite`). The cap's pushes are read with the snapshot: the
    /// dispatcher's claims run one at a time, and those of this claim the decider counts.
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
        // 1. One read of every due row's snapshot, outside the write lock, milliseconds
        //    before the requests go out.
        let (audience, defaultZone) = (audience, defaultTimeZone)
        let snapshot = try await database.read { db in
            let due = try ClaimSnapshot.due(limit: limit, allowance: allowance, at: at, in: db)
            return try ClaimSnapshot.read(due, audience: audience, defaultTimeZone: defaultZone, now: now, in: db)
        }
        guard !snapshot.rows.isEmpty else { return ([], [], .zero) }
        // 2 and 3. Inside one short write: what still holds, the decisions, their writes.
        let write = ClaimWrite(decider: ClaimDecider(now: at, cap: audience.frequencyCap, limit: limit), at: at)
        return try await database.write { db in
            let began = ContinuousClock.now
            let outcome = try write.apply(snapshot, in: db)
            // The last of a campaign may have settled here, unsent.
            for campaign in outcome.settledUnsent {
                try CampaignTransition.finishIfSettled(campaign, now: now, in: db)
            }
            let moved = outcome.settledUnsent.union(outcome.putOff).union(outcome.claimed.map(\.campaignID))
            feed?.publishOnCommit(moved, in: db)
            return (outcome.claimed, moved, ContinuousClock.now - began)
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
                            literal: """
                                UPDATE panel_journey_entries SET state = \(JourneyEntryState.entered), settled_at = NULL
                                WHERE id = \(entry) AND state = \(entry: .sent)
                                """)
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
