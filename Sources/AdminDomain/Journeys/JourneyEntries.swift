import Foundation
import GRDB

/// Users entering a journey, in the evaluation's write transaction (a few milliseconds: the
/// caller batches). Once per occurrence: the table's UNIQUE (journey, user, occurrence) makes
/// a second evaluation, a restart or a second panel process enter nobody twice. A new
/// occurrence re-enters only when the journey allows re-entry (`reentryDays`, nil for never)
/// and the user's latest entry is at least that many days old.
///
/// An entry is recorded as what became of it at once: `exited` when no device of theirs can
/// get a push (the reason kept), `limited` over the daily ceiling, `held_out` when drawn into
/// the holdout, `expired` with no time to send within a day; else `entered`, with a queued
/// delivery per device, due when the journey sends.
public enum JourneyEntries {
    public struct Outcome: Sendable, Equatable {
        public var entered = 0
        /// This occurrence entered already.
        public var alreadyEntered = 0
        /// A new occurrence, but re-entry is off or too soon.
        public var reentryRefused = 0
        /// Deliveries queued.
        public var deliveries = 0

        public init(entered: Int = 0, alreadyEntered: Int = 0, reentryRefused: Int = 0, deliveries: Int = 0) {
            self.entered = entered
            self.alreadyEntered = alreadyEntered
            self.reentryRefused = reentryRefused
            self.deliveries = deliveries
        }

        mutating func add(_ other: Outcome) {
            entered += other.entered
            alreadyEntered += other.alreadyEntered
            reentryRefused += other.reentryRefused
            deliveries += other.deliveries
        }
    }

    /// Entries without deliveries: uniqueness and re-entry alone.
    public static func enter(
        journeyID: Int64, _ crossings: [TriggerCrossing], reentryDays: Int?, now: Int64, in db: Database
    ) throws -> Outcome {
        try enter(
            journeyID: journeyID, crossings.map(JourneyAdmission.init(plain:)), reentryDays: reentryDays,
            dailyLimit: nil, now: now, in: db)
    }

    public static func enter(
        journeyID: Int64, _ admissions: [JourneyAdmission], reentryDays: Int?, dailyLimit: Int?, now: Int64,
        in db: Database
    ) throws -> Outcome {
        var outcome = Outcome()
        let nowText = SQLiteTime.string(secondsSinceEpoch: now)
        let same = try db.cachedStatement(
            sql: """
                SELECT 1 FROM panel_journey_entries WHERE journey_id = ? AND user_id = ? AND occurrence = ?
                """)
        let latest = try db.cachedStatement(
            sql: """
                SELECT MAX(entered_at) FROM panel_journey_entries INDEXED BY panel_journey_entries_user
                WHERE journey_id = ? AND user_id = ?
                """)
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO panel_journey_entries
                  (journey_id, user_id, occurrence, entered_at, state, arm, due_at, settled_at, detail, timing)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let count = try db.cachedStatement(
            sql: """
                INSERT INTO panel_timing_counts (campaign_id, timing, basis, hour, moved, users)
                  VALUES (?, ?, ?, ?, ?, 1)
                ON CONFLICT (campaign_id, timing, basis, hour, moved) DO UPDATE SET users = users + 1
                """)
        // A device's row of this journey is reused by its next entry: what the last one got
        // back from the device is kept on that entry first.
        let keepReceipt = try db.cachedStatement(
            sql: """
                UPDATE panel_journey_entries
                SET receipt = MAX(receipt,
                                  (SELECT receipt FROM panel_deliveries
                                   WHERE campaign_id = :journey AND device_id = :device)),
                    opened_in_day = MAX(opened_in_day,
                                        COALESCE((SELECT \(openedInDay) FROM panel_deliveries
                                                  WHERE campaign_id = :journey AND device_id = :device), 0))
                WHERE id = (SELECT entry_id FROM panel_deliveries WHERE campaign_id = :journey AND device_id = :device)
                """)
        let deliver = try db.cachedStatement(
            literal: """
                INSERT INTO panel_deliveries
                  (campaign_id, device_id, user_id, state, due_at, updated_at, variant, entry_id)
                VALUES (:journey, :device, :user, \(sql: DeliveryState.queued.sqlLiteral), :due, :at, :variant, :entry)
                ON CONFLICT (campaign_id, device_id) DO UPDATE
                  SET state = \(sql: DeliveryState.queued.sqlLiteral), user_id = excluded.user_id, due_at = excluded.due_at,
                      attempts = 0, detail = NULL, message_id = NULL, receipt = 0, opened_at = NULL,
                      updated_at = excluded.updated_at, variant = excluded.variant, entry_id = excluded.entry_id
                WHERE panel_deliveries.state <> \(sql: DeliveryState.sending.sqlLiteral)
                """)
        var enteredToday: Int?
        for admission in admissions {
            let crossing = admission.crossing
            if try Bool.fetchOne(same, arguments: [journeyID, crossing.userID, crossing.occurrence]) == true {
                outcome.alreadyEntered += 1
                continue
            }
            if let last = try String.fetchOne(latest, arguments: [journeyID, crossing.userID]) {
                // An entry stamped after now (a clock that ran ahead) counts as now: it is never
                // older than the wait.
                let enteredAt = min(SQLiteTime.seconds(last) ?? now, now)
                guard let days = reentryDays, now - enteredAt >= Int64(days) * 86_400 else {
                    outcome.reentryRefused += 1
                    continue
                }
            }
            var state = JourneyEntryState.entered
            var arm: String? = admission.arm
            var detail = admission.exit
            var due = admission.due
            if admission.exit != nil {
                (state, arm, due) = (.exited, nil, nil)
            } else if let limit = dailyLimit {
                let today = try enteredToday ?? Self.enteredToday(journeyID, now: now, in: db)
                if today >= limit {
                    (state, arm, due, detail) = (.limited, nil, nil, "daily limit of \(limit) reached")
                } else {
                    enteredToday = today + 1
                }
            }
            if state == .entered {
                if arm == CampaignDraw.Arm.holdout.stored {
                    (state, due) = (.heldOut, nil)
                } else if due == nil {
                    (state, detail) = (
                        .expired, "no time to send within a day of entry (sending window and quiet hours)"
                    )
                }
            }
            try insert.execute(arguments: [
                journeyID, crossing.userID, crossing.occurrence, nowText, state, arm, due,
                state == .entered ? nil : nowText, detail,
                state == .entered || state == .expired ? admission.timing : nil,
            ])
            guard db.changesCount > 0 else {
                outcome.alreadyEntered += 1
                continue
            }
            outcome.entered += 1
            // The journey's holdout and the global control group's members are read at their
            // entry and 72 hours later, beside its recipients (`ConsentReadings`); a first entry only.
            if state == .heldOut || (state == .exited && detail == Exclusion.globalControl.rawValue) {
                try db.execute(
                    sql: """
                        INSERT INTO panel_consent_readings (campaign_id, user_id, grp, start_at, seen)
                        SELECT ?, ?, ?, ?, CASE WHEN EXISTS (SELECT 1 FROM notification_settings WHERE user_id = ?)
                                             THEN 7 ELSE 15 END
                        WHERE true
                        ON CONFLICT (campaign_id, user_id, grp) DO NOTHING
                        """,
                    arguments: [
                        journeyID, crossing.userID, state == .heldOut ? "holdout" : "control", nowText,
                        crossing.userID,
                    ])
            }
            guard state == .entered, let due else { continue }
            let entry = db.lastInsertedRowID
            if let timing = admission.timing, let basis = admission.basis, let hour = admission.hour {
                try count.execute(arguments: [journeyID, timing, basis.rawValue, hour, admission.moved?.rawValue ?? ""])
            }
            for device in admission.devices {
                try keepReceipt.execute(arguments: ["journey": journeyID, "device": device])
                try deliver.execute(arguments: [
                    "journey": journeyID, "device": device, "user": crossing.userID, "due": due, "at": nowText,
                    "variant": arm, "entry": entry,
                ])
                outcome.deliveries += db.changesCount
            }
        }
        if outcome.entered > 0 || outcome.deliveries > 0 {
            try db.execute(
                sql: "UPDATE panel_journeys SET entered_count = entered_count + ? WHERE campaign_id = ?",
                arguments: [outcome.entered, journeyID])
            try db.execute(
                sql: "UPDATE panel_campaigns SET audience_count = audience_count + ? WHERE id = ?",
                arguments: [outcome.deliveries, journeyID])
        }
        return outcome
    }

    /// A delivery opened within a day of its last change (its acceptance, once it went out),
    /// as the panel's clock stamped the open: 1 or 0.
    public static let openedInDay =
        "(receipt >= 2 AND opened_at IS NOT NULL AND opened_at <= datetime(updated_at, '+1 day'))"

    /// Entries today (UTC) that count against the daily ceiling: every one drawn, held out or not.
    static func enteredToday(_ journey: Int64, now: Int64, in db: Database) throws -> Int {
        let start = now - ((now % 86_400) + 86_400) % 86_400
        return try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM panel_journey_entries INDEXED BY panel_journey_entries_time
                WHERE journey_id = ? AND entered_at >= ? AND entered_at < ? AND arm IS NOT NULL
                """,
            arguments: [
                journey, SQLiteTime.string(secondsSinceEpoch: start),
                SQLiteTime.string(secondsSinceEpoch: start + 86_400),
            ]) ?? 0
    }

    /// Ends entries still waiting (state `entered`) as `state` with `detail`, and cancels
    /// their deliveries not yet claimed.
    static func settle(_ ids: [Int64], state: JourneyEntryState, detail: String?, at: PanelTime, in db: Database) throws
    {
        guard !ids.isEmpty else { return }
        let list = ids.map(String.init).joined(separator: ",")
        try db.execute(
            literal: """
                UPDATE panel_journey_entries SET state = \(state), detail = \(detail), settled_at = \(at)
                WHERE id IN (\(sql: list)) AND state = \(entry: .entered)
                """)
        let cancelled = "journey entry \(state.rawValue)" + (detail.map { ": \(JourneyExit.label(of: $0))" } ?? "")
        try db.execute(
            literal: """
                UPDATE panel_deliveries SET state = \(DeliveryState.cancelled), detail = \(cancelled), updated_at = \(at)
                WHERE entry_id IN (\(sql: list)) AND state IN (\(states: DeliveryState.waiting))
                """)
    }
}
