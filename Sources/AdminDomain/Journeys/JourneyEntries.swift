import Foundation
import GRDB

/// Users entering a journey, in the evaluation's write transaction (a few milliseconds: the
/// caller batches). Once per occurrence: the table's UNIQUE (journey, user, occurrence) makes
/// a second evaluation, a restart or a second panel process enter nobody twice. A new
/// occurrence re-enters only when the journey allows re-entry (`reentryDays`, nil for never)
/// and the user's latest entry is at least that many days old.
public enum JourneyEntries {
    public struct Outcome: Sendable, Equatable {
        public var entered = 0
        /// This occurrence entered already.
        public var alreadyEntered = 0
        /// A new occurrence, but re-entry is off or too soon.
        public var reentryRefused = 0

        public init(entered: Int = 0, alreadyEntered: Int = 0, reentryRefused: Int = 0) {
            self.entered = entered
            self.alreadyEntered = alreadyEntered
            self.reentryRefused = reentryRefused
        }
    }

    public static func enter(journeyID: Int64, _ crossings: [TriggerCrossing], reentryDays: Int?, now: Int64,
                             in db: Database) throws -> Outcome {
        var outcome = Outcome()
        let nowText = SQLiteTime.string(secondsSinceEpoch: now)
        let same = try db.cachedStatement(sql: """
            SELECT 1 FROM panel_journey_entries WHERE journey_id = ? AND user_id = ? AND occurrence = ?
            """)
        let latest = try db.cachedStatement(sql: """
            SELECT MAX(entered_at) FROM panel_journey_entries INDEXED BY panel_journey_entries_user WHERE journey_id = ? AND user_id = ?
            """)
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO panel_journey_entries (journey_id, user_id, occurrence, entered_at, state) VALUES (?, ?, ?, ?, 'entered')
            """)
        for crossing in crossings {
            if try Bool.fetchOne(same, arguments: [journeyID, crossing.userID, crossing.occurrence]) == true {
                outcome.alreadyEntered += 1
                continue
            }
            if let last = try String.fetchOne(latest, arguments: [journeyID, crossing.userID]) {
                // An entry stamped after now (a clock that ran ahead) counts as now: it is never
                // older than the wait.
                let enteredAt = min(SQLiteTime.date(last).map { Int64($0.timeIntervalSince1970) } ?? now, now)
                guard let days = reentryDays, now - enteredAt >= Int64(days) * 86_400 else {
                    outcome.reentryRefused += 1
                    continue
                }
            }
            try insert.execute(arguments: [journeyID, crossing.userID, crossing.occurrence, nowText])
            if db.changesCount > 0 { outcome.entered += 1 } else { outcome.alreadyEntered += 1 }
        }
        return outcome
    }
}
