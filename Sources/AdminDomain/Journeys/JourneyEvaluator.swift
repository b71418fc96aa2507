import Foundation
import GRDB

/// One evaluation of one journey: the users who crossed its trigger since the previous
/// evaluation enter it. Reads run at low priority in pages, each page's admissions (devices,
/// rules, due time) read with it; each page's entries are one short write transaction. The
/// window's end (`evaluated_until`) moves only after the whole window is entered: a crash
/// half-way reads the window again, and the entries' uniqueness enters nobody twice. A clock
/// that went back (now before the last evaluation) reads nothing and moves nothing.
public struct JourneyEvaluator: Sendable {
    let database: PanelDatabase
    let audience: Audience
    let defaultTimeZone: String
    var pageSize = 500
    /// Where a page that queued deliveries is published when it commits (the runner's feed).
    var changes: CampaignChanges?

    public init(
        database: PanelDatabase, audience: Audience = Audience(), defaultTimeZone: String = "UTC", pageSize: Int = 500
    ) {
        self.database = database
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        self.pageSize = max(1, pageSize)
    }

    /// Evaluates the journey if it is active; nothing otherwise.
    public func evaluate(journeyID: Int64, now: Int64) async throws -> JourneyEntries.Outcome {
        guard let plan = try await database.read({ db in try JourneyPlan.load(journeyID, in: db) }),
            plan.status == .sending
        else { return .init() }
        return try await evaluate(plan, now: now)
    }

    func evaluate(_ plan: JourneyPlan, now: Int64) async throws -> JourneyEntries.Outcome {
        let journeyID = plan.id
        let rules = plan.rules
        guard let previous = plan.evaluatedUntil else {
            // Only marks where the journey begins: nobody enters for crossings before it was activated.
            try await database.write { db in
                try db.execute(
                    sql: """
                        UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ? AND evaluated_until IS NULL
                        """, arguments: [now, journeyID])
            }
            return .init()
        }
        guard now > previous else { return .init() }
        var outcome = JourneyEntries.Outcome()
        let limit = pageSize
        let audience = self.audience
        let zone = defaultTimeZone
        let changes = self.changes
        func write(_ admissions: [JourneyAdmission], also: (@Sendable (Database) throws -> Void)? = nil) async throws {
            outcome.add(
                try await database.write { db in
                    // Paused or ended since the read: nobody enters.
                    guard
                        try Stored<CampaignStatus>.fetchOne(
                            db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [journeyID])?.known
                            == .sending
                    else { return .init() }
                    let entered = try JourneyEntries.enter(
                        journeyID: journeyID, admissions, reentryDays: rules.reentryDays, dailyLimit: rules.dailyLimit,
                        now: now, in: db)
                    try also?(db)
                    if entered.deliveries > 0 { changes?.publishOnCommit(journeyID, in: db) }
                    return entered
                })
        }
        if case .subscriptionEnding(let days) = rules.trigger {
            let passAfter = plan.passAfter
            let (page, admissions) = try await database.readAtLowPriority { db in
                let page = try SubscriptionPass.page(days: days, now: now, after: passAfter, limit: limit * 20, in: db)
                return (
                    page,
                    try JourneyAdmission.read(
                        page.crossings, plan: plan, audience: audience, defaultTimeZone: zone, now: now, in: db)
                )
            }
            try await write(admissions) { db in
                try db.execute(
                    sql: "UPDATE panel_journeys SET pass_after = ?, evaluated_until = ? WHERE campaign_id = ?",
                    arguments: [page.next, now, journeyID])
            }
            return outcome
        }
        var cursor: TriggerScan.Cursor?
        repeat {
            let (page, admissions) = try await database.readAtLowPriority { [cursor] db in
                let page = try TriggerScan.page(
                    rules.trigger, previous: previous, now: now, after: cursor, limit: limit, in: db)
                return (
                    page,
                    try JourneyAdmission.read(
                        page.crossings, plan: plan, audience: audience, defaultTimeZone: zone, now: now, in: db)
                )
            }
            if !admissions.isEmpty { try await write(admissions) }
            cursor = page.next
        } while cursor != nil
        try await database.write { db in
            // Never backwards: another process may have evaluated further meanwhile.
            try db.execute(
                sql:
                    "UPDATE panel_journeys SET evaluated_until = MAX(COALESCE(evaluated_until, 0), ?) "
                    + "WHERE campaign_id = ?",
                arguments: [now, journeyID])
        }
        return outcome
    }
}
