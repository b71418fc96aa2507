import Foundation
import GRDB

/// Where a campaign's deliveries are, and what devices confirmed: the live page's numbers.
public struct CampaignProgress: Sendable, Equatable, Codable {
    /// The campaign's status as stored, and why it stopped if it stopped on its own, read
    /// with the counts.
    public var status = ""
    /// The status as the pages word it: `scheduled` for a sending campaign whose planned time
    /// is still ahead (`CampaignShownStatus`), else the stored one.
    public var shownStatus = ""
    public var detail: String?
    public var total = 0
    /// Queued and due, or claimed for sending.
    public var queued = 0
    /// Queued for later: quiet hours, a local time, a scheduled time, a retry.
    public var waiting = 0
    /// Of those waiting, the rest of a winner test's audience, until the winner is chosen.
    public var heldForWinner = 0
    public var sending = 0
    public var accepted = 0
    public var failed = 0
    public var dead = 0
    public var unknown = 0
    /// Cancelled before they were sent.
    public var cancelled = 0
    /// Not sent: the user had the frequency cap's campaign pushes by the time it was due.
    public var capped = 0
    /// Not sent: a rule of the audience no longer held when it was due (consent withdrawn,
    /// account suspended, permission denied, push off, token or provider gone).
    public var excluded = 0
    /// Receipts that confirmed no push that went out: never counted as received or opened.
    public var ignoredReceipts = 0
    /// Devices whose app said it got the push, and those where it was tapped.
    public var received = 0
    public var opened = 0
    /// Failures by their reason, most common first (ten at most).
    public var failureReasons: [Reason] = []
    /// Deliveries left out when due, by the rule that no longer held (ten at most).
    public var exclusionReasons: [Reason] = []

    public struct Reason: Sendable, Equatable, Codable {
        public let reason: String
        public let count: Int
    }

    public init() {}

    /// Settled: nothing more will happen to these.
    public var done: Int { accepted + failed + dead + unknown + cancelled + capped + excluded }
    /// Settled without a request: the cap, a rule that no longer held, a failure, a dead token.
    public var unsent: Int { capped + excluded + failed + dead }
    /// Requests that went out (or may have): accepted, unknown and in flight.
    public var sent: Int { accepted + unknown + sending }

    /// Read from the counts the triggers keep (`panel_delivery_counts`, a dozen rows), or
    /// for a campaign that had deliveries before they were kept, counted from the
    /// `(campaign_id, state, receipt)` index, never from the table.
    static func fetch(_ id: Int64, in db: Database, now: Date) throws -> CampaignProgress {
        var progress = CampaignProgress()
        let campaign = CampaignRecord.Columns.self
        let delivery = PanelDelivery.Columns.self
        var countsKept = false
        if let row = try Row.fetchOne(
            db,
            sql: """
                SELECT CAST(status AS TEXT) AS status, status_detail, ignored_receipts, send_at, local_time,
                       counts_kept
                FROM panel_campaigns WHERE id = ?
                """, arguments: [id])
        {
            countsKept = (row["counts_kept"] as Int?) == 1
            progress.status = (row[campaign.status] as String?) ?? ""
            let sendAt = try row.decode(PanelTime?.self, forColumn: campaign.sendAt)
            let ahead = (row[campaign.localTime] as String?) == nil && (sendAt.map { $0 > PanelTime(now) } ?? false)
            progress.shownStatus =
                progress.status == CampaignStatus.sending.rawValue && ahead
                ? CampaignShownStatus.scheduled.rawValue : progress.status
            progress.detail = row[campaign.statusDetail]
            progress.ignoredReceipts = row[campaign.ignoredReceipts]
        }
        let counts =
            countsKept
            ? "SELECT state, receipt, count FROM panel_delivery_counts WHERE campaign_id = ? AND count <> 0"
            : """
            SELECT state, receipt, COUNT(*) AS count FROM panel_deliveries INDEXED BY panel_deliveries_counts
            WHERE campaign_id = ? GROUP BY state, receipt
            """
        for row in try Row.fetchAll(db, sql: counts, arguments: [id]) {
            let count: Int = row["count"]
            let receipt: Int = row[delivery.receipt]
            progress.total += count
            if receipt >= 1 { progress.received += count }
            if receipt >= 2 { progress.opened += count }
            switch DeliveryState(rawValue: row[delivery.state]) {
            case .queued, .retry: progress.queued += count
            case .sending: progress.sending += count
            case .accepted: progress.accepted += count
            case .failed: progress.failed += count
            case .dead: progress.dead += count
            case .unknown: progress.unknown += count
            case .cancelled: progress.cancelled += count
            case .capped: progress.capped += count
            case .excluded: progress.excluded += count
            case nil: progress.unknown += count
            }
        }
        if progress.queued > 0 {
            progress.waiting = try waiting(id, .laterThan(PanelTime(now)), in: db)
            progress.queued -= progress.waiting
            if progress.waiting > 0 { progress.heldForWinner = try waiting(id, .heldForWinner, in: db) }
        }
        if progress.failed > 0 { progress.failureReasons = try reasons(id, .failed, in: db) }
        if progress.excluded > 0 { progress.exclusionReasons = try reasons(id, .excluded, in: db) }
        return progress
    }

    private enum Due {
        case laterThan(PanelTime)
        case heldForWinner
    }

    /// The campaign's rows still waiting whose due time is `due`, on the due index.
    private static func waiting(_ id: Int64, _ due: Due, in db: Database) throws -> Int {
        let condition: SQL =
            switch due {
            case .laterThan(let time): "due_at > \(time)"
            case .heldForWinner: "due_at = \(Campaigns.heldForWinner)"
            }
        return try Int.fetchOne(
            db,
            SQLRequest(
                literal: """
                    SELECT COUNT(*) FROM panel_deliveries INDEXED BY panel_deliveries_due
                    WHERE campaign_id = \(id) AND state IN (\(states: DeliveryState.waiting)) AND \(condition)
                    """)) ?? 0
    }

    /// The ten commonest `detail`s of one campaign's rows in `state`.
    private static func reasons(_ id: Int64, _ state: DeliveryState, in db: Database) throws -> [Reason] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT COALESCE(detail, 'no reason given') AS detail, COUNT(*) AS count
                FROM panel_deliveries INDEXED BY panel_deliveries_counts
                WHERE campaign_id = ? AND state = ?
                GROUP BY 1
                ORDER BY 2 DESC
                LIMIT 10
                """, arguments: [id, state]
        ).map { Reason(reason: $0[PanelDelivery.Columns.detail], count: $0["count"]) }
    }
}

extension Campaigns {
    public func progress(_ id: Int64, now: Date = Date()) async throws -> CampaignProgress {
        try await database.read { db in try CampaignProgress.fetch(id, in: db, now: now) }
    }
}

extension Campaigns {
    /// The counts once no send is in flight, or as they are after `limit`: read again at each
    /// change the feed publishes for the campaign, never on a timer. Subscribed before the
    /// first read, so that outcomes recorded between that read and the wait still wake it.
    public func progressWithoutSendsInFlight(_ id: Int64, within limit: Duration) async throws -> CampaignProgress {
        let feed = changes.subscribe(to: id)
        let first = try await progress(id)
        guard first.sending > 0 else { return first }
        let settled = try await withThrowingTaskGroup(of: CampaignProgress?.self) { group in
            group.addTask {
                for await _ in feed {
                    let progress = try await self.progress(id)
                    if progress.sending == 0 { return progress }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let winner = try await group.next() ?? nil
            group.cancelAll()
            return winner
        }
        if let settled { return settled }
        return try await progress(id)
    }
}
