import Foundation
import GRDB

/// The winner test's end: the chosen variant goes to the rest. The choice, its figures and
/// who made it commit with the audit row; the rest's deliveries are then released a chunk
/// per transaction, and a stop meanwhile is taken up by the impact refresher's next run.
extension Campaigns {
    /// Chooses `variant` for the rest of the audience. Refused with a sentence when the
    /// campaign has no test share, has its winner already, is not sending or paused, or has
    /// no such variant.
    public func chooseWinner(
        _ id: Int64, variant: MessageVariant, figures: String, by actor: AuditActor, byRule: Bool, now: Date = Date()
    ) async throws {
        guard let campaign = try await find(id) else { throw CampaignError("there is no campaign #\(id)") }
        guard campaign.experiment.testPercent != nil else {
            throw CampaignError("campaign #\(id) sends every variant to everyone: it has no winner to choose")
        }
        guard campaign.winner == nil else { throw CampaignError("campaign #\(id) has its winner already") }
        guard campaign.experiment.letters.contains(variant) else {
            throw CampaignError("campaign #\(id) has no variant \(variant.letter)")
        }
        let who = actor.identity.map { " by \($0.email)" } ?? ""
        let detail = String(
            "variant \(variant.letter) \(byRule ? "by the rule" : "chosen by hand\(who)"): \(figures)".prefix(300))
        try await database.write { db in
            let status = try Stored<CampaignStatus>.fetchOne(
                db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [id])?.known
            guard status == .sending || status == .paused else {
                throw CampaignError(
                    "campaign #\(id) is \(status?.rawValue ?? "in a status this panel does not know"), "
                        + "and a winner can be chosen only while it is sending or paused"
                )
            }
            try db.execute(
                sql:
                    "UPDATE panel_campaigns SET winner = ?, winner_at = ?, winner_detail = ? "
                    + "WHERE id = ? AND winner IS NULL",
                arguments: [variant, PanelTime(now), detail, id])
            guard db.changesCount == 1 else { throw CampaignError("campaign #\(id) has its winner already") }
            try AuditLog.insert(
                actor.entry(.campaignWinnerChosen, target: "campaign:\(id)", detail: detail), now: now, in: db)
            changes.publishOnCommit(id, in: db)
        }
        try await releaseHeld(id, now: now)
    }

    /// The rest's deliveries get the winner and a due time from `now` (after each one's quiet
    /// hours, at the next local time for a local-time campaign), 5,000 a transaction.
    @discardableResult
    public func releaseHeld(_ id: Int64, now: Date = Date()) async throws -> Int {
        var released = 0
        let at = SQLiteTime.string(now)
        let zone = defaultTimeZone
        while true {
            let count = try await database.write { db -> Int in
                let campaign = CampaignRecord.Columns.self
                guard
                    let row = try CampaignRecord.select(campaign.winner, campaign.localTime, campaign.status).filter(
                        key: id
                    ).asRequest(of: Row.self).fetchOne(db),
                    let winner = row[campaign.winner] as String?,
                    let status = Stored<CampaignStatus>.fromDatabaseValue(row[campaign.status] as DatabaseValue)?.known,
                    !status.isEnded
                else { return 0 }
                let localTime: String? = row[campaign.localTime]
                try db.execute(
                    literal: """
                        UPDATE panel_deliveries
                        SET variant = \(winner),
                            due_at = COALESCE(
                              (SELECT panel_due_at(\(at), u.timezone, s.quiet_start, s.quiet_end, \(localTime), \(zone))
                               FROM users u
                               LEFT JOIN notification_settings s ON s.user_id = u.id
                               WHERE u.id = panel_deliveries.user_id),
                              \(at))
                        WHERE id IN (SELECT id FROM panel_deliveries INDEXED BY panel_deliveries_due
                                     WHERE campaign_id = \(id)
                                       AND state IN (\(states: DeliveryState.waiting))
                                       AND due_at = \(Self.heldForWinner)
                                     LIMIT 5000)
                        """)
                if db.changesCount > 0 { changes.publishOnCommit(id, in: db) }
                return db.changesCount
            }
            released += count
            if count < 5_000 { return released }
        }
    }

    /// Whether the freeze drew anyone: a campaign launched before the panel measured
    /// campaigns, or whose audience was empty at the freeze, has no members and no report.
    public func hasMembers(_ id: Int64) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM panel_campaign_members WHERE campaign_id = ?)", arguments: [id])
                ?? false
        }
    }

    /// Campaigns whose winner is chosen but some of whose rest still waits for it (a stop
    /// came between two chunks): the dispatcher releases them.
    public func winnersToRelease() async throws -> [Int64] {
        try await database.read { db in
            try Int64.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT id FROM panel_campaigns c
                        WHERE winner IS NOT NULL
                          AND status IN (\(CampaignStatus.sending), \(CampaignStatus.paused))
                          AND EXISTS (SELECT 1 FROM panel_deliveries INDEXED BY panel_deliveries_due
                                      WHERE campaign_id = c.id
                                        AND state IN (\(states: DeliveryState.waiting))
                                        AND due_at = \(Self.heldForWinner))
                        """))
        }
    }

    /// Campaigns with a test share, no winner yet, sending or paused, whose wait has passed at `now`.
    public func winnersDue(now: Date = Date()) async throws -> [CampaignRecord] {
        let candidates = try await database.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM panel_campaigns
                    WHERE test_percent IS NOT NULL AND winner IS NULL AND status IN (?, ?) AND deleted_at IS NULL
                    """, arguments: [CampaignStatus.sending, CampaignStatus.paused])
        }
        var due: [CampaignRecord] = []
        for id in candidates {
            guard let campaign = try await find(id), let from = campaign.measuredFrom else { continue }
            let wait = TimeInterval((campaign.experiment.winnerWaitHours ?? 24) * 3_600)
            if from.addingTimeInterval(wait) <= now { due.append(campaign) }
        }
        return due
    }
}
