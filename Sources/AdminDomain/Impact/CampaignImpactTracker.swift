import Foundation
import GRDB
import Logging

/// Keeps every launched campaign's impact report up to date in the background, and answers
/// the pages from memory: a view never reads the events. A campaign is tracked from the end
/// of its freeze until a day after its goal window closed (rows stamped in the window may
/// arrive late); its last report is then kept in `panel_campaign_reports` and the tally is
/// dropped. After a restart open windows are read again from the time index.
///
/// The winner test ends here too: when a campaign's wait has passed, the panel chooses by
/// the rule from the report it just computed.
public actor CampaignImpactTracker {
    let campaigns: Campaigns
    let logger: Logger
    /// How long after its window closes a campaign is still read for late rows.
    let grace: TimeInterval
    private var states: [Int64: ImpactState] = [:]
    private var reports: [Int64: CampaignImpact] = [:]
    /// The refresh under way: a second caller waits for it rather than reading everything twice.
    private var running: Task<Void, any Error>?

    public init(campaigns: Campaigns, grace: TimeInterval = 86_400, logger: Logger = Logger(label: "impact")) {
        self.campaigns = campaigns
        self.grace = grace
        self.logger = logger
    }

    var database: PanelDatabase { campaigns.database }

    /// A campaign in one of these has its whole audience frozen (or as much as it got).
    public static func isFrozen(_ status: CampaignStatus) -> Bool {
        [.sending, .paused, .cancelled, .finished].contains(status)
    }

    /// The report of a launched campaign: live, or as kept when its window closed; nil
    /// before its first computation.
    /// `computeIfMissing`: a campaign whose audience is frozen but whose report was not
    /// computed yet since the start is computed now, rather than shown as missing.
    public func report(_ id: Int64, computeIfMissing: Bool = false) async throws -> CampaignImpact? {
        if let live = reports[id] { return live }
        if let kept = try await Self.stored(id, in: database) { return kept }
        guard computeIfMissing else { return nil }
        try await refresh()
        return reports[id]
    }

    static func stored(_ id: Int64, in database: PanelDatabase) async throws -> CampaignImpact? {
        guard
            let text = try await database.read({ db in
                try PanelCampaignReport.fetchOne(db, key: id)?.report
            })
        else { return nil }
        return try? JSONDecoder().decode(CampaignImpact.self, from: Data(text.utf8))
    }

    /// Every tracked campaign brought up to date, closed windows kept, due winners chosen.
    /// One at a time: a call while one runs waits for it.
    public func refresh(now: Date = Date()) async throws {
        if let running { return try await running.value }
        let task = Task { try await DatabaseLane.asJob("impact-refresh") { try await self.refreshAll(now: now) } }
        running = task
        defer { running = nil }
        try await task.value
    }

    private func refreshAll(now: Date) async throws {
        let campaign = CampaignRecord.Columns.self
        let open = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.goal, c.goal_days, c.send_at, c.launched_at, c.test_percent, c.winner
                    FROM panel_campaigns c
                    WHERE c.status IN (?, ?, ?, ?) AND c.deleted_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM panel_campaign_reports r WHERE r.campaign_id = c.id)
                      AND EXISTS (SELECT 1 FROM panel_campaign_members m WHERE m.campaign_id = c.id)
                    """,
                arguments: [
                    CampaignStatus.sending, CampaignStatus.paused, CampaignStatus.cancelled, CampaignStatus.finished,
                ]
            )
            .map {
                row -> (id: Int64, goal: String?, days: Int, sendAt: PanelTime?, launchedAt: PanelTime?, restHeld: Bool)
                in
                // A winner test's rest is held until a winner is chosen (and never sent if none is).
                (
                    row[campaign.id], row[campaign.goal], row[campaign.goalDays],
                    try row.decode(forColumn: campaign.sendAt), try row.decode(forColumn: campaign.launchedAt),
                    (row[campaign.testPercent] as Int?) != nil && (row[campaign.winner] as String?) == nil
                )
            }
        }
        let tracked = Set(open.map(\.id))
        for id in states.keys where !tracked.contains(id) { states[id] = nil }
        for row in open {
            let id = row.id
            let state: ImpactState
            if let existing = states[id] {
                state = existing
                try await state.advance(reader: database, now: now)
            } else {
                // The planned send time, else the launch: what `CampaignRecord.measuredFrom` says.
                guard let from = row.sendAt?.date ?? row.launchedAt?.date else {
                    continue
                }
                state = ImpactState(
                    campaignID: id, goal: row.goal.flatMap(CampaignGoal.init(rawValue:)), start: from,
                    goalDays: row.days)
                try await state.build(reader: database)
                try await state.advance(reader: database, now: now)
                states[id] = state
            }
            let report = state.report(now: now, restHeld: row.restHeld)
            reports[id] = report
            if now.timeIntervalSince(report.windowEnd) > grace {
                try await keep(report)
                states[id] = nil
                reports[id] = nil
            }
        }
        try await chooseDueWinners(now: now)
    }

    /// The final report, as JSON, in the panel's table.
    private func keep(_ report: CampaignImpact) async throws {
        let text = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        try await database.write { db in
            try PanelCampaignReport(campaignID: report.campaignID, asOf: PanelTime(report.asOf), report: text).insert(
                db, onConflict: .replace)
        }
    }

    private func chooseDueWinners(now: Date) async throws {
        for campaign in try await campaigns.winnersDue(now: now) {
            // The live report, else the one kept when its window closed: a wait of up to 72 hours
            // outlasts a goal window of a day or two and its grace, and without its figures the
            // rule fell back to A.
            let report = try await self.report(campaign.id)
            let best = report?.ruleWinner
            let variant = best?.variant ?? .a
            let figures =
                best.map { Self.figures($0, goal: report?.goal) } ?? "no figures: nobody was in the test share"
            do {
                try await campaigns.chooseWinner(
                    campaign.id, variant: variant, figures: figures, by: .panel, byRule: true, now: now)
                logger.info(
                    "winner chosen by the rule",
                    metadata: ["campaign": "\(campaign.id)", "variant": "\(variant.rawValue)"])
            } catch let error as CampaignError {
                logger.warning(
                    "winner not chosen", metadata: ["campaign": "\(campaign.id)", "reason": "\(error.description)"])
            }
        }
        for id in try await campaigns.winnersToRelease() { try await campaigns.releaseHeld(id, now: now) }
    }

    /// "12.3% converted (45 of 366), 40.1% opened": what the audit row keeps of a choice.
    public static func figures(_ row: CampaignImpact.VariantRow, goal: CampaignGoal?) -> String {
        let group = row.group
        func percent(_ value: Double?) -> String { value.map { String(format: "%.1f%%", $0 * 100) } ?? "n/a" }
        let opened = "\(percent(group.openRate)) opened (\(group.opened) of \(group.users))"
        guard goal != nil else { return opened }
        return "\(percent(group.conversionRate)) converted (\(group.converted) of \(group.users)), " + opened
    }
}
