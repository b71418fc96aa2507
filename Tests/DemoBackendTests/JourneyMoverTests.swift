import AdminDomain
import DemoBackend
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, point 8: the demo's simulated backend moves a few users across each demo
/// journey's trigger every minute, and some back, on a seeded database with a fake clock.
/// The rows are counted with SQL written here from the triggers' definitions (docs/journeys.md),
/// not with the panel's own trigger code.
@Suite(.timeLimit(.minutes(20))) struct JourneyMoverTests {
    /// An hour after the seed's now, as in `SimulatedReminderBackend`.
    static let start: Int64 = 1_795_003_600
    static let day: Int64 = 86_400

    static func time(_ seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Users whose `last_active_at` crosses now − 30 days in (from, to]: active, with that time.
    static func winBack(from: Int64, to: Int64, in db: Database) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM users WHERE status = 'active' AND last_active_at > ? AND last_active_at <= ?
                    """, arguments: [time(from - 30 * day), time(to - 30 * day)]))
    }

    /// Users who signed up 2 days before a moment of (from, to] with fewer than 3 food items
    /// and documents, not deleted.
    static func firstWeek(from: Int64, to: Int64, in db: Database) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT u.id FROM users u WHERE u.created_at > ? AND u.created_at <= ?
                      AND (SELECT COUNT(*) FROM food_items f WHERE f.user_id = u.id AND f.deleted_at IS NULL)
                        + (SELECT COUNT(*) FROM documents d WHERE d.user_id = u.id AND d.deleted_at IS NULL) < 3
                    """, arguments: [time(from - 2 * day), time(to - 2 * day)]))
    }

    /// Subscriptions of premium users ending within 3 days of `now`, in force and not renewing.
    static func lapsing(now: Int64, in db: Database) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT s.id FROM subscriptions s JOIN users u ON u.id = s.user_id
                    WHERE u.plan = 'premium' AND s.current_period_end > ? AND s.current_period_end <= ?
                      AND (s.status IN ('cancelled', 'past_due')
                           OR (s.status = 'active' AND s.cancelled_at IS NOT NULL))
                    """, arguments: [time(now), time(now + 3 * day)]))
    }

    /// The seeding is awaited; each test's body then runs as it was written, synchronously.
    static func setup() async throws -> (TemporaryDatabase, DatabaseQueue) {
        let temp = try await TemporaryDatabase.seeded(users: 1_000, now: TemporaryDatabase.seedNow)
        return (temp, try DatabaseQueue(path: temp.path))
    }

    @Test func eachMinuteAFewUsersCrossEachTriggerInTheComingMinuteAndNothingInBetween() async throws {
        let (temp, queue) = try await Self.setup()
        defer { temp.remove() }
        try Self.eachMinuteAFewUsersCrossEachTriggerInTheComingMinuteAndNothingInBetween(temp: temp, queue: queue)
    }

    static func eachMinuteAFewUsersCrossEachTriggerInTheComingMinuteAndNothingInBetween(
        temp: TemporaryDatabase, queue: DatabaseQueue
    ) throws {
        let now = Self.start
        let (winBefore, firstBefore, lapsingBefore, usersBefore) = try queue.read { db in
            (
                try Self.winBack(from: now, to: now + 60, in: db), try Self.firstWeek(from: now, to: now + 60, in: db),
                try Self.lapsing(now: now + 60, in: db), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0
            )
        }
        var mover = JourneyMover(seed: 42)
        let counts = try queue.write { db in try mover.tick(now: now, in: db) }
        #expect(
            counts == JourneyMover.Counts(lapsed: 5, signedUp: 3, cancelled: 2),
            "nothing moved back in the first minute")

        try queue.read { (db: Database) throws in
            // Crossing after now (so after a journey activated now) and by the next minute's evaluation.
            let lapsed = try Self.winBack(from: now, to: now + 60, in: db).subtracting(winBefore)
            #expect(lapsed.count == 5)
            #expect(
                try Self.winBack(from: now - 3_600, to: now, in: db).isDisjoint(with: lapsed),
                "nobody crosses before now")
            // Each has a device that may get a push.
            for user in lapsed {
                #expect(
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM devices WHERE user_id = ? AND push_token IS NOT NULL",
                        arguments: [user])! > 0)
            }
            let newcomers = try Self.firstWeek(from: now, to: now + 60, in: db).subtracting(firstBefore)
            #expect(newcomers.count == 3)
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") == usersBefore + 3,
                "three sign-ups, nobody else")
            for user in newcomers {
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT COUNT(*) FROM devices
                                WHERE user_id = u.id AND push_permission = 'granted' AND push_token IS NOT NULL)
                                 AS devices,
                               (SELECT COUNT(*) FROM notification_settings WHERE user_id = u.id) AS settings,
                               (SELECT COUNT(*) FROM activity_events
                                WHERE user_id = u.id AND kind = 'sign_up' AND created_at = u.created_at) AS signUps,
                               u.status, u.last_active_at >= u.created_at AND u.last_active_at <= ? AS seenSince
                        FROM users u WHERE u.id = ?
                        """, arguments: [Self.time(now), user])!
                let devices: Int = row["devices"]
                let settings: Int = row["settings"]
                let signUps: Int = row["signUps"]
                let status: String = row["status"]
                let seenSince: Bool = row["seenSince"]
                #expect(devices == 1 && settings == 1 && signUps == 1, "\(row)")
                #expect(status == "active" && seenSince, "\(row)")
            }
            let lapsing = try Self.lapsing(now: now + 60, in: db).subtracting(lapsingBefore)
            #expect(lapsing.count == 2)
            // Cancelled just now, by premium users who were renewing.
            #expect(
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM subscriptions WHERE cancelled_at = ? AND status = 'cancelled'",
                    arguments: [Self.time(now)]) == 2)
        }

        // Within the minute: nothing.
        let snapshot = {
            try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT id, last_active_at, created_at FROM users ORDER BY id")
            }
        }
        let before = try snapshot()
        let again = try queue.write { db in try mover.tick(now: now + 58, in: db) }
        #expect(again == nil)
        #expect(try snapshot() == before)
        #expect(try queue.write { db in try mover.tick(now: now + 60, in: db) } != nil, "a minute on, the next moves")
    }

    @Test func minutesLaterSomeComeBackAddTheirItemsOrRenew() async throws {
        let (temp, queue) = try await Self.setup()
        defer { temp.remove() }
        try Self.minutesLaterSomeComeBackAddTheirItemsOrRenew(temp: temp, queue: queue)
    }

    static func minutesLaterSomeComeBackAddTheirItemsOrRenew(temp: TemporaryDatabase, queue: DatabaseQueue) throws {
        let now = Self.start
        let (winBefore, firstBefore, lapsingBefore) = try queue.read { db in
            (
                try Self.winBack(from: now, to: now + 60, in: db), try Self.firstWeek(from: now, to: now + 60, in: db),
                try Self.lapsing(now: now + 60, in: db)
            )
        }
        var mover = JourneyMover(seed: 9)
        try queue.write { db in _ = try mover.tick(now: now, in: db) }
        let (lapsed, newcomers, lapsing) = try queue.read { db in
            (
                try Self.winBack(from: now, to: now + 60, in: db).subtracting(winBefore),
                try Self.firstWeek(from: now, to: now + 60, in: db).subtracting(firstBefore),
                try Self.lapsing(now: now + 60, in: db).subtracting(lapsingBefore)
            )
        }
        // Two minutes on, nothing of the first minute moved back yet.
        for minute in 1...2 { try queue.write { db in _ = try mover.tick(now: now + Int64(minute) * 60, in: db) } }
        let (lapsedNow, newcomersNow, lapsingNow) = try queue.read { db in
            (
                try Self.winBack(from: now, to: now + 60, in: db), try Self.firstWeek(from: now, to: now + 60, in: db),
                try Self.lapsing(now: now + 60, in: db)
            )
        }
        #expect(
            lapsedNow.isSuperset(of: lapsed) && newcomersNow.isSuperset(of: newcomers)
                && lapsingNow.isSuperset(of: lapsing))
        // Three and four minutes on: some of them did.
        for minute in 3...4 { try queue.write { db in _ = try mover.tick(now: now + Int64(minute) * 60, in: db) } }
        try queue.read { (db: Database) throws in
            let stillLapsed = try Self.winBack(from: now, to: now + 60, in: db).intersection(lapsed)
            let back = lapsed.subtracting(stillLapsed)
            #expect(!back.isEmpty && !stillLapsed.isEmpty, "some came back, some not: \(back.count) of \(lapsed.count)")
            for user in back {
                // Active again from minute 3 on, with the login that says so.
                #expect(
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM users u
                            JOIN activity_events e
                              ON e.user_id = u.id AND e.kind = 'login' AND e.created_at = u.last_active_at
                            WHERE u.id = ? AND u.last_active_at >= ?
                            """, arguments: [user, Self.time(now + 180)]) == 1)
            }
            let withItems = newcomers.subtracting(try Self.firstWeek(from: now, to: now + 60, in: db))
            #expect(!withItems.isEmpty, "some newcomers added their items")
            for user in withItems {
                #expect(
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM activity_events
                            WHERE user_id = ? AND kind = 'item_added' AND created_at >= ?
                            """,
                        arguments: [user, Self.time(now + 180)])! >= 3)
            }
            let renewed = lapsing.subtracting(try Self.lapsing(now: now + 60, in: db))
            #expect(!renewed.isEmpty, "some renewed")
            for id in renewed {
                #expect(
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM subscriptions
                            WHERE id = ? AND status = 'active' AND cancelled_at IS NULL AND current_period_end > ?
                            """, arguments: [id, Self.time(now + 30 * Self.day)]) == 1)
            }
        }
    }

    /// The demo's journeys, activated now, enter the users the backend moves across their
    /// triggers after now: each moved user and subscription has its entry a minute on.
    @Test func theDemoJourneysEnterTheUsersMovedAfterTheirActivation() async throws {
        let (temp, queue) = try await Self.setup()
        defer { temp.remove() }
        let now = Self.start
        let database = try await PanelDatabase.open(path: temp.path)
        let journeys = Journeys(database: database)
        let seeded = try await DemoJourneys.seed(journeys, now: Date(timeIntervalSince1970: TimeInterval(now)))
        #expect(seeded?.active.count == 3 && seeded?.drafts == [])
        #expect(try await DemoJourneys.seed(journeys) == nil, "seeded once")
        let listed = try await journeys.list()
        let ids = Dictionary(
            uniqueKeysWithValues: listed.compactMap { journey in journey.rules.map { ($0.trigger.stored, journey.id) } }
        )
        #expect(Set(ids.keys) == ["inactive_days", "first_days", "subscription_ending"])
        #expect(listed.allSatisfy { $0.status == .active })

        let (winBefore, firstBefore, lapsingBefore) = try await queue.read { db in
            (
                try Self.winBack(from: now, to: now + 60, in: db), try Self.firstWeek(from: now, to: now + 60, in: db),
                try Self.lapsing(now: now + 60, in: db)
            )
        }
        var mover = JourneyMover(seed: 5)
        mover = try await queue.write { [mover] db in
            var next = mover
            _ = try next.tick(now: now, in: db)
            return next
        }
        _ = try await JourneyRunner(journeys: journeys).tick(now: Date(timeIntervalSince1970: TimeInterval(now + 60)))

        try await queue.read { (db: Database) throws in
            func entered(_ trigger: String) throws -> Set<Int64> {
                Set(
                    try Int64.fetchAll(
                        db, sql: "SELECT user_id FROM panel_journey_entries WHERE journey_id = ?",
                        arguments: [ids[trigger]]))
            }
            let lapsed = try Self.winBack(from: now, to: now + 60, in: db).subtracting(winBefore)
            let newcomers = try Self.firstWeek(from: now, to: now + 60, in: db).subtracting(firstBefore)
            let ending = try Self.lapsing(now: now + 60, in: db).subtracting(lapsingBefore)
            let endingIDs = ending.map(String.init).joined(separator: ",")
            let endingUsers = Set(
                try Int64.fetchAll(db, sql: "SELECT user_id FROM subscriptions WHERE id IN (\(endingIDs))"))
            #expect(lapsed.count == 5 && newcomers.count == 3 && endingUsers.count == 2)
            #expect(try entered("inactive_days").isSuperset(of: lapsed))
            #expect(try entered("first_days").isSuperset(of: newcomers))
            #expect(try entered("subscription_ending").isSuperset(of: endingUsers))
            // Some entries queued a push (the rest were held out, excluded or wait for the window).
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE entry_id IS NOT NULL")! > 0)
        }

        // Minutes on, some of the lapsed users come back while their push waits for their
        // window; when it falls due (within the day) it is not sent: the entry exits.
        let lapsedUsers = try await queue.read { db in
            try Self.winBack(from: now, to: now + 60, in: db).subtracting(winBefore)
        }
        let waiting = Set(
            try await queue.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT user_id FROM panel_journey_entries WHERE journey_id = ? AND state = 'entered'",
                    arguments: [ids["inactive_days"]])
            }
        ).intersection(lapsedUsers)
        for minute in 2...6 {
            mover = try await queue.write { [mover] db in
                var next = mover
                _ = try next.tick(now: now + Int64(minute) * 60, in: db)
                return next
            }
        }
        let cameBack = try await queue.read { db in
            lapsedUsers.subtracting(try Self.winBack(from: now, to: now + 60, in: db))
        }
        let stopped = waiting.intersection(cameBack)
        try #require(
            !stopped.isEmpty, "a user who came back had a push waiting: waiting \(waiting), came back \(cameBack)")
        let later = Date(timeIntervalSince1970: TimeInterval(now + 23 * 3_600))
        let outbox = DeliveryOutbox(database: database)
        for _ in 0..<20 {
            if try await outbox.claim(limit: 500, now: later).isEmpty { break }
        }
        let exits = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, state, detail FROM panel_journey_entries
                    WHERE journey_id = ? AND user_id IN (\(stopped.map(String.init).joined(separator: ",")))
                    """, arguments: [ids["inactive_days"]])
        }
        #expect(exits.count == stopped.count)
        for row in exits {
            #expect(row["state"] == "exited" && row["detail"] == "no_longer_matches", "\(row)")
        }
    }
}
