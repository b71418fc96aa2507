import Foundation
import GRDB

/// Whether each entry reached the journey's goal within `goal_days` of entering, judged once,
/// when its window has closed: `converted` 1 or 0. Entries are read in id order after the
/// journey's `goal_cursor`, which stops at the first entry whose window is still open. An
/// entry stamped more than a day ahead of now (a clock that ran ahead) is passed over
/// unjudged rather than holding every later one back.
struct JourneyGoals: Sendable {
    let database: PanelDatabase
    var batch = 2_000

    func judge(_ plan: JourneyPlan, now: Date) async throws -> Int {
        guard let goal = plan.goal else { return 0 }
        let closedBefore = SQLiteTime.string(now.addingTimeInterval(-TimeInterval(plan.goalDays) * 86_400))
        let ahead = SQLiteTime.string(now.addingTimeInterval(86_400))
        let nowText = SQLiteTime.string(now)
        let limit = batch
        let (verdicts, cursor) = try await database.readAtLowPriority { db -> ([(Int64, Bool)], Int64?) in
            let start =
                try Int64.fetchOne(
                    db, sql: "SELECT goal_cursor FROM panel_journeys WHERE campaign_id = ?", arguments: [plan.id]) ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, user_id, entered_at, arm FROM panel_journey_entries
                    WHERE id > ? AND journey_id = ?
                    ORDER BY id LIMIT ?
                    """, arguments: [start, plan.id, limit])
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(JourneyClaimCheck.goalReached(goal, window: .bound))
                    FROM (SELECT :user AS id) u
                    """)
            var verdicts: [(Int64, Bool)] = []
            var cursor: Int64?
            for row in rows {
                let id: Int64 = row["id"]
                let entered: String = row["entered_at"]
                if entered > ahead {
                    cursor = id
                    continue
                }
                guard entered <= closedBefore else { break }
                cursor = id
                guard row["arm"] as String? != nil else { continue }
                let until =
                    SQLiteTime.seconds(entered).map {
                        SQLiteTime.string(secondsSinceEpoch: $0 + Int64(plan.goalDays) * 86_400)
                    } ?? nowText
                let reached =
                    try Bool.fetchOne(
                        statement, arguments: ["user": row["user_id"] as Int64, "entered": entered, "until": until])
                    ?? false
                verdicts.append((id, reached))
            }
            return (verdicts, cursor)
        }
        guard let cursor else { return 0 }
        try await database.write { db in
            let mark = try db.cachedStatement(sql: "UPDATE panel_journey_entries SET converted = ? WHERE id = ?")
            for (id, reached) in verdicts { try mark.execute(arguments: [reached, id]) }
            try db.execute(
                sql: "UPDATE panel_journeys SET goal_cursor = MAX(goal_cursor, ?) WHERE campaign_id = ?",
                arguments: [cursor, plan.id])
        }
        return verdicts.count
    }
}
