import Foundation
import GRDB

/// One evaluation of one journey: the users who crossed its trigger since the previous
/// evaluation enter it. Reads run at low priority in pages; each page's entries are one
/// short write transaction. The window's end (`evaluated_until`) moves only after the whole
/// window is entered: a crash half-way reads the window again, and the entries' uniqueness
/// enters nobody twice. A clock that went back (now before the last evaluation) reads
/// nothing and moves nothing.
public struct JourneyEvaluator: Sendable {
    let database: PanelDatabase
    var pageSize = 1_000

    public init(database: PanelDatabase) {
        self.database = database
    }

    public func evaluate(journeyID: Int64, trigger: JourneyTrigger, reentryDays: Int?, now: Int64) async throws -> JourneyEntries.Outcome {
        let state = try await database.read { db -> (found: Bool, previous: Int64?, passAfter: Int64?) in
            guard let row = try Row.fetchOne(db, sql: "SELECT evaluated_until, pass_after FROM panel_journeys WHERE campaign_id = ?",
                                             arguments: [journeyID]) else { return (false, nil, nil) }
            return (true, row["evaluated_until"], row["pass_after"])
        }
        guard state.found else { return .init() }
        let previous = state.previous, passAfter = state.passAfter
        guard let previous else {
            // The first evaluation only marks where the journey begins: nobody enters for
            // crossings before it was activated.
            try await database.write { db in
                try db.execute(sql: "UPDATE panel_journeys SET evaluated_until = ? WHERE campaign_id = ? AND evaluated_until IS NULL",
                               arguments: [now, journeyID])
            }
            return .init()
        }
        guard now > previous else { return .init() }
        var outcome = JourneyEntries.Outcome()
        func add(_ more: JourneyEntries.Outcome) {
            outcome.entered += more.entered
            outcome.alreadyEntered += more.alreadyEntered
            outcome.reentryRefused += more.reentryRefused
        }
        let limit = pageSize
        if case let .subscriptionEnding(days) = trigger {
            let page = try await database.readAtLowPriority { db in
                try SubscriptionPass.page(days: days, now: now, after: passAfter, limit: limit * 10, in: db)
            }
            add(try await database.write { db in
                let entered = try JourneyEntries.enter(journeyID: journeyID, page.crossings, reentryDays: reentryDays, now: now, in: db)
                try db.execute(sql: "UPDATE panel_journeys SET pass_after = ?, evaluated_until = ? WHERE campaign_id = ?",
                               arguments: [page.next, now, journeyID])
                return entered
            })
            return outcome
        }
        var cursor: TriggerScan.Cursor?
        repeat {
            let page = try await database.readAtLowPriority { [cursor] db in
                try TriggerScan.page(trigger, previous: previous, now: now, after: cursor, limit: limit, in: db)
            }
            if !page.crossings.isEmpty {
                add(try await database.write { db in
                    try JourneyEntries.enter(journeyID: journeyID, page.crossings, reentryDays: reentryDays, now: now, in: db)
                })
            }
            cursor = page.next
        } while cursor != nil
        try await database.write { db in
            // Never backwards: another process may have evaluated further meanwhile.
            try db.execute(sql: "UPDATE panel_journeys SET evaluated_until = MAX(COALESCE(evaluated_until, 0), ?) WHERE campaign_id = ?",
                           arguments: [now, journeyID])
        }
        return outcome
    }
}
