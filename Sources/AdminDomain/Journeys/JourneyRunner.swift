import Foundation
import GRDB

/// One tick of the journeys, every minute by the service: each active journey evaluated
/// (new entries and their deliveries), its entries older than a day expired, its goal windows
/// that closed judged; each paused or ended journey's waiting entries exited (what a stop
/// between its move and the exit left). The dispatcher sends what the entries queued.
public struct JourneyRunner: Sendable {
    public let journeys: Journeys
    let evaluator: JourneyEvaluator

    public init(journeys: Journeys, pageSize: Int = 500) {
        self.journeys = journeys
        var evaluator = JourneyEvaluator(
            database: journeys.database, audience: journeys.audience, defaultTimeZone: journeys.defaultTimeZone,
            pageSize: pageSize)
        evaluator.changes = journeys.changes
        self.evaluator = evaluator
    }

    public struct Tick: Sendable, Equatable {
        public var journeys = 0
        public var outcome = JourneyEntries.Outcome()
        public var expired = 0
        public var judged = 0
        /// The longest evaluation of one journey.
        public var longest: Duration = .zero
    }

    public func tick(now: Date = Date()) async throws -> Tick {
        let database = journeys.database
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let (active, stopped) = try await database.read { db -> ([Int64], [(Int64, Bool)]) in
            (
                try JourneyPlan.active(in: db),
                try Row.fetchAll(
                    db,
                    SQLRequest(
                        literal: """
                            SELECT c.id, c.status = \(CampaignStatus.finished) AS ended FROM panel_campaigns c
                            WHERE c.kind = \(CampaignKind.journey)
                              AND c.status IN (\(CampaignStatus.paused), \(CampaignStatus.finished))
                              AND c.deleted_at IS NULL
                              AND (EXISTS (SELECT 1 FROM panel_journey_entries e INDEXED BY panel_journey_entries_open
                                           WHERE e.journey_id = c.id AND e.state = \(entry: .entered))
                                   OR EXISTS (SELECT 1 FROM panel_deliveries q INDEXED BY panel_deliveries_due
                                              WHERE q.campaign_id = c.id
                                                AND q.state IN (\(states: DeliveryState.waiting))))
                            """)
                ).map { ($0["id"], $0["ended"]) }
            )
        }
        var tick = Tick()
        for (id, ended) in stopped {
            try await journeys.exitWaiting(of: id, reason: ended ? .journeyEnded : .journeyPaused, now: now)
        }
        for id in active {
            let began = ContinuousClock.now
            guard let plan = try await database.read({ db in try JourneyPlan.load(id, in: db) }),
                plan.status == .sending
            else { continue }
            tick.journeys += 1
            let outcome = try await evaluator.evaluate(plan, now: seconds)
            tick.outcome.add(outcome)
            tick.longest = max(tick.longest, ContinuousClock.now - began)
            tick.expired += try await expire(id, now: now)
            tick.judged += try await JourneyGoals(database: database).judge(plan, now: now)
        }
        return tick
    }

    /// Entries still waiting a day after they entered: expired, their deliveries cancelled.
    func expire(_ id: Int64, now: Date) async throws -> Int {
        let before = SQLiteTime.string(now.addingTimeInterval(-JourneySendAt.horizon))
        let at = PanelTime(now)
        // Most ticks have nothing to expire: a read says so without taking the file's write lock.
        let due = try await journeys.database.read { db in
            try Bool.fetchOne(
                db,
                SQLRequest(
                    literal: """
                        SELECT EXISTS (SELECT 1 FROM panel_journey_entries INDEXED BY panel_journey_entries_open
                                       WHERE state = \(entry: .entered) AND entered_at <= \(before) AND journey_id = \(id))
                        """)) ?? false
        }
        guard due else { return 0 }
        var total = 0
        while true {
            let count = try await journeys.database.write { db -> Int in
                let ids = try Int64.fetchAll(
                    db,
                    SQLRequest(
                        literal: """
                            SELECT id FROM panel_journey_entries INDEXED BY panel_journey_entries_open
                            WHERE state = \(entry: .entered) AND entered_at <= \(before) AND journey_id = \(id) LIMIT 1000
                            """))
                try JourneyEntries.settle(
                    ids, state: .expired, detail: "not sent within a day of entry", at: at, in: db)
                return ids.count
            }
            total += count
            if count < 1_000 { return total }
        }
    }
}
