import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Issue 32, findings 1 to 3: what held at the launch may not hold when a push falls due.
/// Each test changes the app's rows after the freeze, as the backend would, and reads what
/// became of the deliveries with SQL of its own.
@Suite(.timeLimit(.minutes(20))) struct SendTimeRulesTests {
    static let launch = Date(timeIntervalSince1970: 1_795_000_000)

    static func prepare() async throws -> (TemporaryDatabase, PanelDatabase) {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: launch)
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "UPDATE notification_settings SET quiet_start = NULL, quiet_end = NULL")
        }
        return (temp, try await PanelDatabase.open(path: temp.path))
    }

    /// Claims everything due at `now` and accepts it, as a provider that accepts all would.
    static func sendAll(_ outbox: DeliveryOutbox, now: Date) async throws {
        while true {
            let claimed = try await outbox.claim(limit: 50, now: now)
            let due = try await outbox.database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE state IN ('queued', 'retry') AND due_at <= ?",
                    arguments: [SQLiteTime.string(now)]) ?? 0
            }
            if claimed.isEmpty && due == 0 { return }
            try await outbox.record(claimed.map { ($0, .accepted(messageID: "m\($0.rowID)")) }, now: now)
        }
    }

    /// Users with a delivery in the campaign still waiting, lowest ids first.
    static func waitingUsers(_ campaign: Int64, _ database: PanelDatabase, count: Int) async throws -> [Int64] {
        try await database.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT user_id FROM panel_deliveries WHERE campaign_id = ? AND state = 'queued'
                      ORDER BY user_id LIMIT ?
                    """, arguments: [campaign, count])
        }
    }

    static func states(_ campaign: Int64, path: String) async throws -> [Int64: Set<String>] {
        try await DatabaseQueue(path: path).read { db in
            var states: [Int64: Set<String>] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT user_id, state FROM panel_deliveries WHERE campaign_id = ?", arguments: [campaign])
            {
                states[row["user_id"], default: []].insert(row["state"])
            }
            return states
        }
    }

    /// The backend's changes after the launch: consent withdrawn, an account suspended, the
    /// permission denied, push turned off, a token gone, a device signed in by someone else.
    static func changeRules(for users: [Int64], path: String) async throws {
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: "UPDATE notification_settings SET marketing_opt_in = 0 WHERE user_id = ?", arguments: [users[0]])
            try db.execute(sql: "UPDATE users SET status = 'suspended' WHERE id = ?", arguments: [users[1]])
            try db.execute(
                sql: "UPDATE devices SET push_permission = 'denied' WHERE user_id = ?", arguments: [users[2]])
            try db.execute(
                sql: "UPDATE notification_settings SET push_enabled = 0 WHERE user_id = ?", arguments: [users[3]])
            try db.execute(sql: "UPDATE devices SET push_token = NULL WHERE user_id = ?", arguments: [users[4]])
            try db.execute(sql: "UPDATE devices SET user_id = ? WHERE user_id = ?", arguments: [users[6], users[5]])
        }
    }

    @Test func consentStatusPermissionAndPushChangedBeforeTheDueTimeSendNothing() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let due = Self.launch.addingTimeInterval(180)
        let id = try await campaigns.create(
            CampaignDraft(title: "soon", body: "b", schedule: .at(due)), by: .commandLine, now: Self.launch)
        try await campaigns.begin(id, schedule: .at(due), by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches()
        let users = try await Self.waitingUsers(id, database, count: 7)
        try #require(users.count == 7)
        try await Self.changeRules(for: users, path: temp.path)

        try await Self.sendAll(DeliveryOutbox(database: database), now: due.addingTimeInterval(1))
        let states = try await Self.states(id, path: temp.path)
        for user in users.prefix(6) {
            #expect(states[user] == ["excluded"], "user \(user): \(states[user] ?? [])")
        }
        let others = states.filter { !users.prefix(6).contains($0.key) }
        #expect(others.count > 50 && others.values.allSatisfy { $0 == ["accepted"] })
        let progress = try await campaigns.progress(id)
        let excluded = states.filter { users.prefix(6).contains($0.key) }.count
        #expect(progress.status == "finished" && progress.excluded >= excluded)
        let reasons = progress.exclusionReasons.map(\.reason).joined(separator: " | ")
        for words in [
            "no consent to campaign pushes", "suspended or deleted", "without permission or token",
            "push notifications turned off", "no device",
        ] {
            #expect(reasons.contains(words), "\(words) in \(reasons)")
        }
    }

    @Test func theRestOfAWinnerTestIsCheckedWhenReleasedNotAtTheFreeze() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let experiment = CampaignExperiment(
            variants: [VariantMessage(variant: .b, title: "B", body: "b")], testPercent: 20, winnerWaitHours: 24)
        let id = try await campaigns.create(
            CampaignDraft(title: "A", body: "a", experiment: experiment), by: .commandLine, now: Self.launch)
        try await campaigns.begin(id, schedule: .now, by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches()
        let held = try await database.read { db in
            try Int64.fetchAll(
                db,
                sql:
                    "SELECT DISTINCT user_id FROM panel_deliveries WHERE campaign_id = ? AND due_at = ? "
                    + "ORDER BY user_id LIMIT 7",
                arguments: [id, Campaigns.heldForWinner])
        }
        try #require(held.count == 7)
        let outbox = DeliveryOutbox(database: database)
        try await Self.sendAll(outbox, now: Self.launch.addingTimeInterval(60))
        // A day later the rules changed for seven of the rest; then the winner goes out.
        try await Self.changeRules(for: held, path: temp.path)
        let later = Self.launch.addingTimeInterval(86_400)
        try await campaigns.chooseWinner(id, variant: .b, figures: "", by: .commandLine, byRule: true, now: later)
        try await Self.sendAll(outbox, now: later.addingTimeInterval(1))
        let states = try await Self.states(id, path: temp.path)
        for user in held.prefix(6) { #expect(states[user] == ["excluded"], "user \(user): \(states[user] ?? [])") }
        #expect(states[held[6]] == ["accepted"])
    }

    /// Tokyo has no daylight saving: local time is UTC + 9 all year.
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    static func hhmm(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tokyo
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour!, parts.minute!)
    }

    @Test func quietHoursThatBeganAfterTheDueTimeHoldBackAPausedOrThrottledPush() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "now", body: "b"), by: .commandLine, now: Self.launch)
        try await campaigns.begin(id, schedule: .now, by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches()
        let users = try await Self.waitingUsers(id, database, count: 3)
        try #require(users.count == 3)
        // Due at the launch; claimed 40 minutes later (the campaign was paused, or a throttle
        // had not reached them). Their quiet hours began 10 minutes before that claim and end
        // an hour after it, on Tokyo's clock.
        let claimAt = Self.launch.addingTimeInterval(40 * 60)
        let quietStart = Self.hhmm(claimAt.addingTimeInterval(-600))
        let quietEnd = Self.hhmm(claimAt.addingTimeInterval(3_600))
        try await DatabaseQueue(path: temp.path).write { db in
            for user in users {
                try db.execute(sql: "UPDATE users SET timezone = 'Asia/Tokyo' WHERE id = ?", arguments: [user])
                try db.execute(
                    sql: "UPDATE notification_settings SET quiet_start = ?, quiet_end = ? WHERE user_id = ?",
                    arguments: [quietStart, quietEnd, user])
            }
        }
        let outbox = DeliveryOutbox(database: database)
        try await Self.sendAll(outbox, now: claimAt)
        let states = try await Self.states(id, path: temp.path)
        for user in users { #expect(states[user] == ["queued"], "user \(user): \(states[user] ?? [])") }
        // Put off to the end of their quiet hours: the whole minute an hour after the claim.
        let end = Date(timeIntervalSince1970: (claimAt.timeIntervalSince1970 / 60).rounded(.down) * 60 + 3_600)
        let dueTimes = try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT due_at FROM panel_deliveries WHERE campaign_id = ? AND state = 'queued'",
                arguments: [id])
        }
        #expect(dueTimes == [SQLiteTime.string(end)])
        // Inside the quiet hours nothing goes; at their end it does.
        try await Self.sendAll(outbox, now: end.addingTimeInterval(-1))
        #expect(try await Self.states(id, path: temp.path)[users[0]] == ["queued"])
        try await Self.sendAll(outbox, now: end)
        let after = try await Self.states(id, path: temp.path)
        for user in users { #expect(after[user] == ["accepted"]) }
    }

    @Test func withoutAnyProviderConfiguredTheLaunchIsRefusedWithASentence() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database, audience: Audience(providers: []))
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        let error = await #expect(throws: CampaignError.self) {
            try await campaigns.begin(id, schedule: .now, by: .commandLine)
        }
        #expect(error?.description.contains("no push provider is configured") == true, "\(String(describing: error))")
        let status = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT status FROM panel_campaigns WHERE id = ?", arguments: [id])
        }
        #expect(status == "draft")
        let preview = try await Audience(providers: []).preview(CampaignSegment(), schedule: .now, in: database)
        #expect(preview.counts.reachableDevices == 0 && preview.missingProviders != nil)
    }

    @Test func onlyDevicesOfAConfiguredProviderAreCountedFrozenAndClaimed() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        // Reachable by the rules, provider aside: SQL of the test's own.
        let reachable = """
            FROM devices d JOIN users u ON u.id = d.user_id LEFT JOIN notification_settings s ON s.user_id = u.id
            WHERE u.status = 'active' AND (s.user_id IS NULL OR (s.push_enabled = 1 AND s.marketing_opt_in = 1))
              AND d.push_permission = 'granted' AND d.push_token IS NOT NULL AND d.push_token <> ''
            """
        let (fcm, apns) = try await DatabaseQueue(path: temp.path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) \(reachable) AND d.push_provider = 'fcm'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) \(reachable) AND d.push_provider = 'apns'") ?? 0
            )
        }
        try #require(fcm > 10 && apns > 10)
        let onlyFCM = Audience(providers: [.fcm])
        let counts = try await onlyFCM.count(CampaignSegment(), in: database)
        #expect(counts.reachableDevices == fcm && counts.excludedDevices[.providerNotConfigured] == apns)

        // Frozen with both, then the server restarted with FCM alone: APNs rows are settled unsent.
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine, now: Self.launch)
        try await campaigns.beginAndFreeze(id, by: .commandLine, now: Self.launch)
        try await Self.sendAll(
            DeliveryOutbox(database: database, audience: onlyFCM), now: Self.launch.addingTimeInterval(5))
        let byProvider = try await DatabaseQueue(path: temp.path).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.push_provider AS provider, q.state AS state, COUNT(*) AS n FROM panel_deliveries q
                      JOIN devices d ON d.id = q.device_id
                    WHERE q.campaign_id = ? GROUP BY 1, 2
                    """, arguments: [id]
            ).map { "\($0["provider"] as String):\($0["state"] as String)=\($0["n"] as Int)" }
        }
        #expect(Set(byProvider) == ["fcm:accepted=\(fcm)", "apns:excluded=\(apns)"], "\(byProvider)")
    }
}
