import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, "exit at send time" and "shared limits": on a controlled clock, users who enter a
/// win-back journey and then change before their push is claimed. Each entry's end is read
/// back from the tables and compared with what the issue says should become of it.
@Suite(.timeLimit(.minutes(20))) struct JourneyClaimTests {
    static let now = TemporaryDatabase.seedNow
    static let seconds = Int64(now.timeIntervalSince1970)
    static let day: Int64 = 86_400
    /// 11:06 UTC at `now`: a window from 11 to 13 sends at once where the user is in UTC.
    static let window = JourneySendAt.window(from: 11, to: 13)

    struct Setup {
        let temp: TemporaryDatabase
        let queue: DatabaseQueue
        let database: PanelDatabase
        let journeys: Journeys
        let outbox: DeliveryOutbox
        let journey: Int64
    }

    /// A user who stopped opening the app exactly 30 days before `crossedAt`, with one
    /// Android device that may get pushes and settings that allow them.
    static func addUser(_ name: String, crossedAt: Int64, timezone: String = "UTC", in queue: DatabaseQueue)
        async throws -> Int64
    {
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (email, password_hash, created_at, last_active_at, timezone)
                      VALUES (?, 'x', '2026-01-01 00:00:00', ?, ?)
                    """, arguments: ["\(name)@claim.test", TriggerScanTests.text(crossedAt - 30 * day), timezone])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: """
                    INSERT INTO devices
                      (user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES (?, 'android', 'fcm', ?, 'granted', '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                    """, arguments: [id, "token-\(name)-0123456789"])
            try db.execute(sql: "INSERT INTO notification_settings (user_id) VALUES (?)", arguments: [id])
            return id
        }
    }

    static func setup(goal: CampaignGoal? = nil, frequencyCap: Int = 2, reentryDays: Int? = nil) async throws -> Setup {
        let temp = try await TemporaryDatabase.seeded(users: 5, now: now)
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        let audience = Audience(frequencyCap: frequencyCap)
        let journeys = Journeys(database: database, audience: audience)
        var content = CampaignDraft(title: "We miss you", body: "Your fridge misses you too")
        content.experiment.goal = goal
        content.experiment.goalDays = 7
        let journey = try await journeys.create(
            JourneyDraft(
                campaign: content,
                rules: JourneyRules(trigger: .inactiveDays(30), sendAt: window, reentryDays: reentryDays)),
            by: .commandLine, now: now.addingTimeInterval(-120))
        try await journeys.activate(journey, by: .commandLine, now: now.addingTimeInterval(-60))
        return Setup(
            temp: temp, queue: queue, database: database, journeys: journeys,
            outbox: DeliveryOutbox(database: database, audience: audience),
            journey: journey)
    }

    static func entries(_ setup: Setup) async throws -> [Int64: String] {
        try await setup.queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT user_id, state || COALESCE(':' || detail, '') AS outcome FROM panel_journey_entries
                          WHERE journey_id = ?
                        """, arguments: [setup.journey]
                ).map { ($0["user_id"] as Int64, $0["outcome"] as String) })
        }
    }

    @Test func whatChangedBetweenEntryAndClaimDecidesThePush() async throws {
        let setup = try await Self.setup(goal: .itemAdded)
        defer { setup.temp.remove() }
        let queue = setup.queue
        let stays = try await Self.addUser("stays", crossedAt: Self.seconds - 10, in: queue)
        let back = try await Self.addUser("back", crossedAt: Self.seconds - 20, in: queue)
        let goal = try await Self.addUser("goal", crossedAt: Self.seconds - 30, in: queue)
        let pushOff = try await Self.addUser("pushoff", crossedAt: Self.seconds - 40, in: queue)
        let suspended = try await Self.addUser("suspended", crossedAt: Self.seconds - 45, in: queue)
        // 20:06 in Tokyo: the window opens at 11:00 there, 14 hours on.
        let later = try await Self.addUser("later", crossedAt: Self.seconds - 50, timezone: "Asia/Tokyo", in: queue)

        let tick = try await JourneyRunner(journeys: setup.journeys).tick(now: Self.now)
        #expect(tick.outcome.entered >= 6)
        let entered = try await Self.entries(setup)
        for user in [stays, back, goal, pushOff, suspended, later] { #expect(entered[user] == "entered") }

        // Between entry and claim, as the backend would write it.
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE users SET last_active_at = ? WHERE id = ?",
                arguments: [TriggerScanTests.text(Self.seconds + 5), back])
            try db.execute(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'item_added', ?)",
                arguments: [goal, TriggerScanTests.text(Self.seconds + 10)])
            try db.execute(
                sql: "UPDATE notification_settings SET push_enabled = 0 WHERE user_id = ?", arguments: [pushOff])
            try db.execute(sql: "UPDATE users SET status = 'suspended' WHERE id = ?", arguments: [suspended])
        }
        let claimed = try await setup.outbox.claim(limit: 100, now: Self.now.addingTimeInterval(60))
        let mine = Set([stays, back, goal, pushOff, suspended, later])
        #expect(claimed.filter { mine.contains($0.userID) }.map(\.userID) == [stays])
        let after = try await Self.entries(setup)
        #expect(after[stays] == "sent")
        #expect(after[back] == "exited:no_longer_matches")
        #expect(after[goal] == "exited:goal_reached")
        #expect(after[pushOff] == "exited:push_off")
        #expect(after[suspended] == "exited:account_closed")
        #expect(after[later] == "entered")
        // None of the stopped users' deliveries is left to send.
        let open = try await queue.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT user_id FROM panel_deliveries WHERE campaign_id = ? AND state IN ('queued', 'retry')
                      ORDER BY user_id
                    """, arguments: [setup.journey])
        }
        #expect(open.filter { mine.contains($0) } == [later])

        // A day after the entry, the one still waiting expires unsent, its delivery cancelled.
        _ = try await JourneyRunner(journeys: setup.journeys).tick(now: Self.now.addingTimeInterval(86_400))
        #expect(try await Self.entries(setup)[later] == "expired:not sent within a day of entry")
        #expect(
            try await queue.read { db in
                try String.fetchOne(
                    db, sql: "SELECT state FROM panel_deliveries WHERE campaign_id = ? AND user_id = ?",
                    arguments: [setup.journey, later])
            } == "cancelled")
    }

    @Test func aPausedJourneySendsNothingAndRecordsWhy() async throws {
        let setup = try await Self.setup()
        defer { setup.temp.remove() }
        let user = try await Self.addUser("paused", crossedAt: Self.seconds - 10, in: setup.queue)
        _ = try await JourneyRunner(journeys: setup.journeys).tick(now: Self.now)
        #expect(try await Self.entries(setup)[user] == "entered")
        try await setup.journeys.pause(setup.journey, by: .commandLine, now: Self.now.addingTimeInterval(10))
        let claimed = try await setup.outbox.claim(limit: 100, now: Self.now.addingTimeInterval(60))
        #expect(!claimed.contains { $0.userID == user })
        #expect(try await Self.entries(setup)[user] == "exited:journey_paused")
    }

    /// The frequency cap counts campaign and journey pushes together, both ways.
    @Test func theCapCountsCampaignAndJourneyPushesTogether() async throws {
        let setup = try await Self.setup(frequencyCap: 1)
        defer { setup.temp.remove() }
        let queue = setup.queue
        let hadCampaign = try await Self.addUser("hadcampaign", crossedAt: Self.seconds - 10, in: queue)
        let getsJourney = try await Self.addUser("getsjourney", crossedAt: Self.seconds - 20, in: queue)
        // A campaign that pushed `hadCampaign` yesterday, and one waiting to push `getsJourney`.
        let (sent, waiting) = try await queue.write { db -> (Int64, Int64) in
            var ids: [Int64] = []
            for title in ["Yesterday", "Later today"] {
                try db.execute(
                    sql: """
                        INSERT INTO panel_campaigns (title, body, ttl_seconds, segment, status, created_at, launched_at)
                        VALUES (?, 'b', 86400, ?, 'sending', '2026-11-17 00:00:00', '2026-11-17 00:00:00')
                        """, arguments: [title, CampaignSegment().storedText])
                ids.append(db.lastInsertedRowID)
            }
            try db.execute(
                sql: """
                    INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                    SELECT ?, id, user_id, 'accepted', '2026-11-17 12:00:00', '2026-11-17 12:00:00' FROM devices
                      WHERE user_id = ?
                    """, arguments: [ids[0], hadCampaign])
            return (ids[0], ids[1])
        }
        _ = try await JourneyRunner(journeys: setup.journeys).tick(now: Self.now)
        let first = try await setup.outbox.claim(limit: 100, now: Self.now.addingTimeInterval(60))
        #expect(first.contains { $0.userID == getsJourney && $0.campaignID == setup.journey })
        #expect(!first.contains { $0.userID == hadCampaign })
        #expect(try await Self.entries(setup)[hadCampaign] == "capped:frequency_cap")
        try await setup.outbox.record(
            first.map { ($0, .accepted(messageID: "m-\($0.rowID)")) }, now: Self.now.addingTimeInterval(61))
        // The journey's push now holds the campaign's back.
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                    SELECT ?, id, user_id, 'queued', ?, ? FROM devices WHERE user_id = ?
                    """,
                arguments: [
                    waiting, TriggerScanTests.text(Self.seconds + 90), TriggerScanTests.text(Self.seconds + 90),
                    getsJourney,
                ])
        }
        let second = try await setup.outbox.claim(limit: 100, now: Self.now.addingTimeInterval(120))
        #expect(!second.contains { $0.userID == getsJourney })
        #expect(
            try await queue.read { db in
                try String.fetchOne(
                    db, sql: "SELECT state FROM panel_deliveries WHERE campaign_id = ? AND user_id = ?",
                    arguments: [waiting, getsJourney])
            } == "capped")
        _ = sent
    }

    /// A re-entered journey pushes again: each push counts against the cap, not the journey once.
    @Test func eachPushOfAReEnteredJourneyCountsAgainstTheCap() async throws {
        let setup = try await Self.setup(frequencyCap: 1, reentryDays: 1)
        defer { setup.temp.remove() }
        let user = try await Self.addUser("twice", crossedAt: Self.seconds - 10, in: setup.queue)
        _ = try await JourneyRunner(journeys: setup.journeys).tick(now: Self.now)
        let first = try await setup.outbox.claim(limit: 100, now: Self.now.addingTimeInterval(60))
        #expect(first.contains { $0.userID == user })
        try await setup.outbox.record(
            first.map { ($0, .accepted(messageID: "m-\($0.rowID)")) }, now: Self.now.addingTimeInterval(61))
        // Back the next day, then gone again: a second occurrence, two days on.
        let later = Self.seconds + 2 * Self.day
        try await setup.queue.write { db in
            try db.execute(
                sql: "UPDATE users SET last_active_at = ? WHERE id = ?",
                arguments: [TriggerScanTests.text(later - 10 - 30 * Self.day), user])
        }
        _ = try await JourneyRunner(journeys: setup.journeys).tick(
            now: Date(timeIntervalSince1970: TimeInterval(later)))
        let entries = try await setup.queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT state FROM panel_journey_entries WHERE journey_id = ? AND user_id = ? ORDER BY id",
                arguments: [setup.journey, user])
        }
        #expect(entries == ["sent", "entered"])
        let second = try await setup.outbox.claim(
            limit: 100, now: Date(timeIntervalSince1970: TimeInterval(later + 60)))
        #expect(!second.contains { $0.userID == user })
        #expect(
            try await setup.queue.read { db in
                try String.fetchAll(
                    db, sql: "SELECT state FROM panel_journey_entries WHERE journey_id = ? AND user_id = ? ORDER BY id",
                    arguments: [setup.journey, user])
            } == ["sent", "capped"])
    }

    /// An entry is `sent` once its first row is claimed; its other device's row, claimed in a
    /// later batch, and a row the provider asked to retry still go.
    @Test func aSecondDeviceAndARetryOfASentEntryStillGo() async throws {
        let setup = try await Self.setup()
        defer { setup.temp.remove() }
        let user = try await Self.addUser("two", crossedAt: Self.seconds - 10, in: setup.queue)
        try await setup.queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO devices
                      (user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES (?, 'android', 'fcm', 'token-two-second-0123', 'granted', '2026-01-01 00:00:00',
                      '2026-01-01 00:00:00')
                    """, arguments: [user])
        }
        _ = try await JourneyRunner(journeys: setup.journeys).tick(now: Self.now)
        var claimed: [ClaimedDelivery] = []
        for second in 60..<70 where claimed.filter({ $0.userID == user }).count < 2 {
            claimed += try await setup.outbox.claim(limit: 1, now: Self.now.addingTimeInterval(TimeInterval(second)))
        }
        let mine = claimed.filter { $0.userID == user }
        #expect(mine.count == 2)
        #expect(try await Self.entries(setup)[user] == "sent")
        // The provider asks to retry the first: it goes again when due.
        try await setup.outbox.record(
            [(mine[0], .retry(reason: "429", after: .seconds(30)))], now: Self.now.addingTimeInterval(80))
        let again = try await setup.outbox.claim(limit: 10, now: Self.now.addingTimeInterval(120))
        #expect(again.map(\.rowID).contains(mine[0].rowID))
    }
}
