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
    /// A delivery that asked to be retried this many times is failed instead.
    public static let maximumAttempts = 5

    public init(database: PanelDatabase) {
        self.database = database
    }

    /// Before the first claim after a start. Returns how many were in flight.
    @discardableResult
    public func recoverAfterStop(now: Date = Date()) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: """
                UPDATE panel_deliveries SET state = 'unknown', detail = 'in flight when the panel stopped', updated_at = ?
                WHERE state = 'sending'
                """, arguments: [SQLiteTime.string(now)])
            return db.changesCount
        }
    }

    /// The campaigns being sent, with their throttle (pushes a second; nil: none of their own).
    public func sendingCampaigns() async throws -> [(id: Int64, perSecond: Int?)] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, per_second FROM panel_campaigns WHERE status = 'sending' ORDER BY id").map { ($0[0], $0[1]) }
        }
    }

    /// Up to `limit` due deliveries of sending campaigns (and at most `allowance[id]` of a
    /// campaign given one), marked `sending` in the same transaction. A device that lost
    /// its token since the launch is failed here, unsent.
    public func claim(limit: Int, allowance: [Int64: Int]? = nil, now: Date = Date()) async throws -> [ClaimedDelivery] {
        let at = SQLiteTime.string(now)
        // With no campaign sending (or none allowed more now), the idle dispatcher never takes
        // the write lock. An allowance comes from `sendingCampaigns()`, read just before.
        if let allowance {
            guard allowance.values.contains(where: { $0 > 0 }) else { return [] }
        } else {
            let sending = try await database.read { db in
                try Int64.fetchAll(db, sql: "SELECT id FROM panel_campaigns WHERE status = 'sending' ORDER BY id")
            }
            guard !sending.isEmpty else { return [] }
        }
        return try await database.write { db in
            // Campaign by campaign on (campaign_id, due_at): rows of a paused campaign are
            // never walked past, however many wait.
            var rows: [Row] = []
            for campaign in try Int64.fetchAll(db, sql: "SELECT id FROM panel_campaigns WHERE status = 'sending' ORDER BY id") where rows.count < limit {
                let wanted = min(limit - rows.count, allowance.map { $0[campaign] ?? 0 } ?? Int.max)
                guard wanted > 0 else { continue }
                rows += try Row.fetchAll(db, sql: """
                    UPDATE panel_deliveries SET state = 'sending', attempts = attempts + 1, updated_at = :now
                    WHERE id IN (
                      SELECT id FROM panel_deliveries INDEXED BY panel_deliveries_due
                      WHERE campaign_id = :campaign AND state IN ('queued', 'retry') AND due_at <= :now
                      ORDER BY due_at LIMIT :limit)
                    RETURNING id, campaign_id, device_id, user_id, attempts
                    """, arguments: ["now": at, "campaign": campaign, "limit": wanted])
            }
            // Compiled once per connection: it runs for every claimed row, inside the write lock.
            let deviceStatement = try db.cachedStatement(sql: "SELECT platform, push_provider, push_token FROM devices WHERE id = ?")
            var claimed: [ClaimedDelivery] = []
            var content: [Int64: Row] = [:]
            var lost: [Int64] = []
            for row in rows {
                let campaignID: Int64 = row["campaign_id"]
                let deviceID: Int64 = row["device_id"]
                if content[campaignID] == nil {
                    content[campaignID] = try Row.fetchOne(db, sql: "SELECT title, body, deep_link, ttl_seconds, template FROM panel_campaigns WHERE id = ?",
                                                           arguments: [campaignID])
                }
                guard let campaign = content[campaignID],
                      let device = try Row.fetchOne(deviceStatement, arguments: [deviceID]),
                      let token: String = try device.decode(forColumn: "push_token"), !token.isEmpty
                else {
                    lost.append(row["id"])
                    continue
                }
                claimed.append(ClaimedDelivery(
                    rowID: row["id"], campaignID: campaignID, deviceID: deviceID, userID: row["user_id"],
                    attempt: (row["attempts"] as Int) - 1, token: token,
                    platform: try device.decode(forColumn: "platform"), provider: try device.decode(forColumn: "push_provider"),
                    title: campaign["title"], body: campaign["body"], deepLink: campaign["deep_link"], timeToLive: campaign["ttl_seconds"], template: campaign["template"]))
            }
            for id in lost {
                try db.execute(sql: "UPDATE panel_deliveries SET state = 'failed', detail = 'the device has no push token any more', updated_at = ? WHERE id = ?",
                               arguments: [at, id])
            }
            return claimed
        }
    }

    /// Outcomes of claimed deliveries, in one transaction; campaigns with nothing left to
    /// send finish, and a credentials problem pauses its campaign with the reason.
    public func record(_ results: [(ClaimedDelivery, DeliveryResult)], now: Date = Date()) async throws {
        guard !results.isEmpty else { return }
        let at = SQLiteTime.string(now)
        try await database.write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE panel_deliveries SET state = ?, detail = ?, message_id = ?, due_at = COALESCE(?, due_at), updated_at = ? WHERE id = ?
                """)
            var dead: [DeadTokens.Entry] = []
            for (delivery, result) in results {
                let (state, detail, messageID, dueAt) = Self.row(for: result, delivery: delivery, now: now)
                try update.execute(arguments: [state, detail.map { String($0.prefix(300)) }, messageID, dueAt, at, delivery.rowID])
                if case .dead(let reason) = result {
                    dead.append(.init(token: delivery.token, deviceID: delivery.deviceID, provider: delivery.provider.storedText, reason: reason))
                }
                if case .credentials(let reason) = result {
                    try db.execute(sql: "UPDATE panel_campaigns SET status = 'paused', status_detail = ? WHERE id = ? AND status = 'sending'",
                                   arguments: ["stopped: \(String(reason.prefix(300)))", delivery.campaignID])
                }
            }
            try DeadTokens.record(dead, now: now, in: db)
            var accepted: [Int64: Int] = [:]
            for (delivery, result) in results { if case .accepted = result { accepted[delivery.campaignID, default: 0] += 1 } }
            for (campaign, count) in accepted {
                try db.execute(sql: "UPDATE panel_campaigns SET accepted_count = accepted_count + ? WHERE id = ?", arguments: [count, campaign])
            }
            for campaign in Set(results.map(\.0.campaignID)) {
                try db.execute(sql: """
                    UPDATE panel_campaigns SET status = 'finished', finished_at = :now
                    WHERE id = :id AND status = 'sending' AND NOT EXISTS (
                      SELECT 1 FROM panel_deliveries WHERE campaign_id = :id AND state IN ('queued', 'retry', 'sending'))
                    """, arguments: ["now": at, "id": campaign])
            }
        }
    }

    private static func row(for result: DeliveryResult, delivery: ClaimedDelivery, now: Date)
        -> (state: DeliveryState, detail: String?, messageID: String?, dueAt: String?) {
        switch result {
        case .accepted(let id): return (.accepted, nil, id, nil)
        case .dead(let reason): return (.dead, reason, nil, nil)
        case .failed(let reason): return (.failed, reason, nil, nil)
        case .unknown(let reason): return (.unknown, reason, nil, nil)
        case .credentials(let reason):
            // Never sent: it waits for the campaign to be resumed.
            return (.queued, reason, nil, nil)
        case .retry(let reason, let after):
            if delivery.attempt + 1 >= maximumAttempts { return (.failed, "gave up after \(maximumAttempts) tries: \(reason)", nil, nil) }
            return (.retry, reason, nil, SQLiteTime.string(now.addingTimeInterval(TimeInterval(after.components.seconds))))
        }
    }

    /// Deliveries of one campaign by state, for its status page.
    public func counts(campaign id: Int64) async throws -> [DeliveryState: Int] {
        try await database.read { db in
            var counts: [DeliveryState: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) FROM panel_deliveries WHERE campaign_id = ? GROUP BY state", arguments: [id]) {
                if let state = DeliveryState(rawValue: row[0]) { counts[state] = row[1] }
            }
            return counts
        }
    }
}
