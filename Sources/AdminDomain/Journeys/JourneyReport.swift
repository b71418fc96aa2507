import Foundation
import GRDB

/// What a journey did, per day of entry (UTC) and in total: who entered and what became of
/// each entry, what the devices confirmed, and the goal in the sent group against the
/// holdout with the lift's 95% interval. An entry's goal counts once its window has closed
/// (`JourneyGoals`); entries whose window is open are not yet in either group's figures.
public struct JourneyReport: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        /// Entries drawn into the group whose goal window has closed.
        public var judged = 0
        public var converted = 0
        public var rate: Double? { judged == 0 ? nil : Double(converted) / Double(judged) }
    }

    public struct Figures: Sendable, Equatable {
        public var entered = 0
        public var heldOut = 0
        public var sent = 0
        public var waiting = 0
        public var exited = 0
        /// Exits by stored reason (`JourneyExit` or `Exclusion` raw values).
        public var exits: [String: Int] = [:]
        public var capped = 0
        public var limited = 0
        public var expired = 0
        public var received = 0
        public var opened = 0
        public var sentGroup = Group()
        public var holdout = Group()
        /// Entries sent at the user's usual hour against the control share (entries drawn into
        /// either, expired ones included: the draw, not the outcome, makes the groups).
        public var timing = TimingComparison()

        public var lift: LiftInterval? {
            LiftInterval(
                converted: sentGroup.converted, of: sentGroup.judged, against: holdout.converted, of: holdout.judged)
        }

        mutating func add(_ other: Figures) {
            entered += other.entered
            heldOut += other.heldOut
            sent += other.sent
            waiting += other.waiting
            exited += other.exited
            exits.merge(other.exits, uniquingKeysWith: +)
            capped += other.capped
            limited += other.limited
            expired += other.expired
            received += other.received
            opened += other.opened
            sentGroup.judged += other.sentGroup.judged
            sentGroup.converted += other.sentGroup.converted
            holdout.judged += other.holdout.judged
            holdout.converted += other.holdout.converted
            timing.add(other.timing)
        }
    }

    public struct Day: Sendable, Equatable {
        /// 'YYYY-MM-DD' as the entry's time was stamped.
        public let day: String
        public var figures = Figures()
    }

    /// Newest day first.
    public var days: [Day] = []
    public var total = Figures()
    public var goal: CampaignGoal?
    public var goalDays = 7

    public init() {}

    /// Every entry of the journey, read by its time index at low priority. Grouped in SQL:
    /// a row per day, state, arm, reason, verdict and confirmation.
    /// - Parameter now: entries whose push's first day is over by then count for opens within a day.
    public static func build(journey: Int64, now: Date = Date(), in database: PanelDatabase) async throws
        -> JourneyReport
    {
        let dayOver = SQLiteTime.string(now.addingTimeInterval(-86_400))
        return try await database.readAtLowPriority { db in
            var report = JourneyReport()
            if let plan = try JourneyPlan.load(journey, in: db) {
                report.goal = plan.goal
                report.goalDays = plan.goalDays
            }
            var byDay: [String: Figures] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT substr(entered_at, 1, 10) AS day, state, arm = 'holdout' AS held, arm IS NOT NULL AS drawn,
                           detail, converted, receipt, timing, in_day, open_judged, COUNT(*) AS n
                    FROM (SELECT e.entered_at, e.state, e.arm, e.detail, e.converted, e.timing,
                                 COALESCE(e.due_at, e.entered_at) <= ? AS open_judged,
                                 MAX(e.receipt,
                                     COALESCE((SELECT MAX(d.receipt)
                                               FROM panel_deliveries d INDEXED BY panel_deliveries_entry
                                               WHERE d.entry_id = e.id), 0)) AS receipt,
                                 MAX(e.opened_in_day,
                                     COALESCE((SELECT MAX(\(JourneyEntries.openedInDay))
                                               FROM panel_deliveries d INDEXED BY panel_deliveries_entry
                                               WHERE d.entry_id = e.id), 0)) AS in_day
                          FROM panel_journey_entries e INDEXED BY panel_journey_entries_time WHERE e.journey_id = ?)
                    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
                    """, arguments: [dayOver, journey])
            for row in rows {
                let n: Int = row["n"]
                let state: Stored<JourneyEntryState> = row["state"]
                var figures = byDay[row["day"] ?? "?"] ?? Figures()
                figures.entered += n
                switch state.known {
                case .heldOut: figures.heldOut += n
                case .sent: figures.sent += n
                case .entered: figures.waiting += n
                case .exited:
                    figures.exited += n
                    figures.exits[row["detail"] ?? "unknown", default: 0] += n
                case .capped: figures.capped += n
                case .limited: figures.limited += n
                case .expired: figures.expired += n
                // Counted as entered, in none of the states (the table's CHECK allows no other).
                case nil: break
                }
                let receipt: Int = row["receipt"] ?? 0
                if receipt >= 1 { figures.received += n }
                if receipt >= 2 { figures.opened += n }
                if row["drawn"] == true, let converted: Bool = row["converted"] {
                    if row["held"] == true {
                        figures.holdout.judged += n
                        if converted { figures.holdout.converted += n }
                    } else {
                        figures.sentGroup.judged += n
                        if converted { figures.sentGroup.converted += n }
                    }
                }
                if let timing: String = row["timing"], timing == "usual" || timing == "control" {
                    let judged = row["open_judged"] == true
                    var group = TimingComparison.Group(
                        users: n, openJudged: judged ? n : 0, openedInDay: judged && row["in_day"] == true ? n : 0)
                    if let converted: Bool = row["converted"] {
                        group.judged = n
                        group.converted = converted ? n : 0
                    }
                    if timing == "usual" { figures.timing.usual.add(group) } else { figures.timing.control.add(group) }
                }
                byDay[row["day"] ?? "?"] = figures
            }
            report.days = byDay.keys.sorted(by: >).map { Day(day: $0, figures: byDay[$0]!) }
            for day in report.days { report.total.add(day.figures) }
            return report
        }
    }
}
