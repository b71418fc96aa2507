import Foundation
import GRDB

/// A journey's rules checked again for each delivery as it is claimed, beside the audience's:
/// what held at the entry may not hold when the push goes. A user active again, renewed or
/// with the items now, outside the journey's conditions now, who reached the goal since the
/// entry, or whose entry is more than a day old, is not sent to: the entry is settled with
/// the reason. A row whose entry ended unsent (or is missing) is not sent either; one whose
/// entry is `sent` is another device of it, or a retry, and goes if the rules still hold.
enum JourneyClaimCheck {
    /// Why each delivery row that must not go is stopped.
    static func exits(for rows: [(row: Int64, entry: Int64?)], journey: Int64, now: Date, in db: Database) throws
        -> [Int64: JourneyClaimExit]
    {
        guard !rows.isEmpty else { return [:] }
        guard let plan = try JourneyPlan.load(journey, in: db) else {
            return Dictionary(uniqueKeysWithValues: rows.map { ($0.row, .entrySettled) })
        }
        // `:entry` is bound per row on the cached statement.
        let query: SQL = """
            SELECT CASE
              WHEN e.id IS NULL OR e.state NOT IN (\(entries: JourneyEntryState.open)) THEN '\(sql: JourneyClaimExit.settledText)'
              WHEN e.entered_at <= :expiredBefore THEN '\(sql: JourneyClaimExit.expiredText)'
              WHEN u.id IS NULL OR NOT (\(sql: Self.triggerHolds(plan.rules.trigger)))
                THEN '\(sql: JourneyExit.noLongerMatches.rawValue)'
              WHEN NOT (\(SQLCondition.all(plan.segment.userConditions(now: now))))
                THEN '\(sql: JourneyExit.outsideConditions.rawValue)'
              WHEN \(sql: Self.goalReached(plan.goal)) THEN '\(sql: JourneyExit.goalReached.rawValue)'
            END
            FROM (SELECT :entry AS entry) k
            LEFT JOIN panel_journey_entries e ON e.id = k.entry
            LEFT JOIN users u ON u.id = e.user_id
            """
        let (sql, segment) = try query.build(db)
        let statement = try db.cachedStatement(sql: sql)
        let fixed =
            segment &+ [
                "now": SQLiteTime.string(now),
                "expiredBefore": SQLiteTime.string(now.addingTimeInterval(-JourneySendAt.horizon)),
            ]
        var exits: [Int64: JourneyClaimExit] = [:]
        for (row, entry) in rows {
            if let exit = try String.fetchOne(statement, arguments: fixed &+ ["entry": entry]) {
                exits[row] = try JourneyClaimExit(stored: exit)
            }
        }
        return exits
    }

    /// The trigger still holds for the entry `e` of user `u`. Raw SQL kept inside this query type.
    private static func triggerHolds(_ trigger: JourneyTrigger) -> String {
        switch trigger {
        // The very `last_active_at` it entered by: any later activity changed it.
        case .inactiveDays: "u.last_active_at IS e.occurrence"
        case .firstDays(_, let fewer):
            """
            (SELECT COUNT(*) FROM (SELECT 1 FROM food_items INDEXED BY food_items_user
                                   WHERE user_id = u.id AND deleted_at IS NULL
                                   LIMIT \(fewer)))
            + (SELECT COUNT(*) FROM (SELECT 1 FROM documents INDEXED BY documents_user
                                     WHERE user_id = u.id AND deleted_at IS NULL
                                     LIMIT \(fewer))) < \(fewer)
            """
        // Still premium, the same period still ending after now without renewal, and no
        // renewing subscription beyond it.
        case .subscriptionEnding:
            """
            u.plan = 'premium'
            AND EXISTS (SELECT 1 FROM subscriptions s INDEXED BY subscriptions_user
                        WHERE s.user_id = u.id
                          AND s.current_period_end = e.occurrence
                          AND s.current_period_end > :now
                          AND (s.status IN ('cancelled', 'past_due')
                               OR (s.status = 'active' AND s.cancelled_at IS NOT NULL)))
            AND NOT EXISTS (SELECT 1 FROM subscriptions r INDEXED BY subscriptions_user
                            WHERE r.user_id = u.id
                              AND r.status = 'active'
                              AND r.cancelled_at IS NULL
                              AND r.current_period_end > e.occurrence)
            """
        }
    }

    /// The two ends of the goal's window as the query around it names them.
    enum GoalWindow {
        /// The claim's: from the entry `e` up to `:now`.
        case sinceEntry
        /// The judge's: from `:entered` up to `:until`.
        case bound

        var start: String { self == .sinceEntry ? "e.entered_at" : ":entered" }
        var end: String { self == .sinceEntry ? ":now" : ":until" }
    }

    /// The user reached the journey's goal after entering (events stamped after the window's
    /// end do not count). Raw SQL kept inside this query type and `JourneyGoals`.
    static func goalReached(_ goal: CampaignGoal?, window: GoalWindow = .sinceEntry) -> String {
        guard let goal else { return "0" }
        let kinds =
            goal.eventKinds.map { " AND a.kind IN (\($0.sorted().map { "'\($0)'" }.joined(separator: ", ")))" } ?? ""
        let events = """
            EXISTS (SELECT 1 FROM activity_events a INDEXED BY activity_events_user_time
                    WHERE a.user_id = u.id AND a.created_at > \(window.start) AND a.created_at <= \(window.end)\(kinds))
            """
        guard goal.countsSubscriptions else { return events }
        return """
            (\(events) OR EXISTS (SELECT 1 FROM subscriptions g INDEXED BY subscriptions_user
                                 WHERE g.user_id = u.id AND g.started_at > \(window.start)
                                   AND g.started_at <= \(window.end)))
            """
    }
}
