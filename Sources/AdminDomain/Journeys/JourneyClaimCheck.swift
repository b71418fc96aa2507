import Foundation
import GRDB

/// A journey's rules checked again for each delivery as it is claimed, beside the audience's:
/// what held at the entry may not hold when the push goes. A user active again, renewed or
/// with the items now, outside the journey's conditions now, who reached the goal since the
/// entry, or whose entry is more than a day old, is not sent to: the entry is settled with
/// the reason. A row whose entry ended unsent (or is missing) is not sent either; one whose
/// entry is `sent` is another device of it, or a retry, and goes if the rules still hold.
enum JourneyClaimCheck {
    /// `expired`, a `JourneyExit` raw value, or `settled`, per delivery row that must not go.
    static func exits(for rows: [(row: Int64, entry: Int64?)], journey: Int64, now: Date, in db: Database) throws -> [Int64: String] {
        guard !rows.isEmpty else { return [:] }
        guard let plan = try JourneyPlan.load(journey, in: db) else {
            return Dictionary(uniqueKeysWithValues: rows.map { ($0.row, "settled") })
        }
        let segment = plan.segment.userConditions(now: now)
        var arguments: [String: DatabaseValue] = [:]
        for condition in segment { arguments.merge(condition.arguments) { first, _ in first } }
        arguments["now"] = SQLiteTime.string(now).databaseValue
        arguments["expiredBefore"] = SQLiteTime.string(now.addingTimeInterval(-JourneySendAt.horizon)).databaseValue
        let inSegment = (["1"] + segment.map { "(\($0.sql))" }).joined(separator: " AND ")
        let statement = try db.cachedStatement(sql: """
            SELECT CASE
              WHEN e.id IS NULL OR e.state NOT IN ('entered', 'sent') THEN 'settled'
              WHEN e.entered_at <= :expiredBefore THEN 'expired'
              WHEN u.id IS NULL OR NOT (\(Self.triggerHolds(plan.rules.trigger))) THEN '\(JourneyExit.noLongerMatches.rawValue)'
              WHEN NOT (\(inSegment)) THEN '\(JourneyExit.outsideConditions.rawValue)'
              WHEN \(Self.goalReached(plan.goal)) THEN '\(JourneyExit.goalReached.rawValue)'
            END
            FROM (SELECT :entry AS entry) k
            LEFT JOIN panel_journey_entries e ON e.id = k.entry
            LEFT JOIN users u ON u.id = e.user_id
            """)
        var exits: [Int64: String] = [:]
        for (row, entry) in rows {
            var bound = arguments
            bound["entry"] = entry.databaseValue
            if let exit = try String.fetchOne(statement, arguments: StatementArguments(bound)) { exits[row] = exit }
        }
        return exits
    }

    /// The trigger still holds for the entry `e` of user `u`.
    static func triggerHolds(_ trigger: JourneyTrigger) -> String {
        switch trigger {
        // The very `last_active_at` it entered by: any later activity changed it.
        case .inactiveDays: "u.last_active_at IS e.occurrence"
        case let .firstDays(_, fewer): """
            (SELECT COUNT(*) FROM (SELECT 1 FROM food_items INDEXED BY food_items_user WHERE user_id = u.id AND deleted_at IS NULL LIMIT \(fewer)))
            + (SELECT COUNT(*) FROM (SELECT 1 FROM documents INDEXED BY documents_user WHERE user_id = u.id AND deleted_at IS NULL LIMIT \(fewer))) < \(fewer)
            """
        // Still premium, the same period still ending after now without renewal, and no
        // renewing subscription beyond it.
        case .subscriptionEnding: """
            u.plan = 'premium'
            AND EXISTS (SELECT 1 FROM subscriptions s INDEXED BY subscriptions_user
                        WHERE s.user_id = u.id AND s.current_period_end = e.occurrence AND s.current_period_end > :now
                          AND (s.status IN ('cancelled', 'past_due') OR (s.status = 'active' AND s.cancelled_at IS NOT NULL)))
            AND NOT EXISTS (SELECT 1 FROM subscriptions r INDEXED BY subscriptions_user
                            WHERE r.user_id = u.id AND r.status = 'active' AND r.cancelled_at IS NULL AND r.current_period_end > e.occurrence)
            """
        }
    }

    /// The user reached the journey's goal after entering (events stamped after now do not count).
    static func goalReached(_ goal: CampaignGoal?) -> String {
        guard let goal else { return "0" }
        let kinds = goal.eventKinds.map { " AND a.kind IN (\($0.sorted().map { "'\($0)'" }.joined(separator: ", ")))" } ?? ""
        let events = """
            EXISTS (SELECT 1 FROM activity_events a INDEXED BY activity_events_user_time
                    WHERE a.user_id = u.id AND a.created_at > e.entered_at AND a.created_at <= :now\(kinds))
            """
        guard goal.countsSubscriptions else { return events }
        return """
            (\(events) OR EXISTS (SELECT 1 FROM subscriptions g INDEXED BY subscriptions_user
                                 WHERE g.user_id = u.id AND g.started_at > e.entered_at AND g.started_at <= :now))
            """
    }
}
