import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Issue 48, the global control group: a keyed draw, as docs/impact.md defines it, that is the
/// same after a restart, keeps its members when the share is raised, and is obeyed at the
/// preview, the freeze and the claim, but not by test sends.
@Suite(.timeLimit(.minutes(20))) struct GlobalControlTests {
    static let launch = Date(timeIntervalSince1970: 1_795_000_000)

    static func definedDraw(_ id: Int64, _ key: GlobalControlDraw.Key) -> Int {
        GlobalControlDefinition.draw(id, key)
    }

    static func key(_ database: PanelDatabase) async throws -> GlobalControlDraw.Key {
        try #require(try await database.read { db in try GlobalControlDraw.key(in: db) })
    }

    /// The users of the app's table in the group now, by SQL over the share in force.
    static func members(_ database: PanelDatabase) async throws -> Set<Int64> {
        try await database.read { db in
            Set(
                try Int64.fetchAll(
                    db, sql: "SELECT u.id FROM users u WHERE \(GlobalControlDraw.memberSQL(user: "u.id"))"))
        }
    }

    @Test func theDrawInSQLAndInSwiftIsTheDocumentedOneForAnyID() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let key = try await Self.key(database)
        var ids: [Int64] = [
            0, 1, -1, 2, Int64.max, Int64.min, Int64.min + 1, 2_147_483_647, 2_147_483_648, -2_147_483_647,
        ]
        var random = SystemRandomNumberGenerator()
        ids += (0..<500).map { _ in Int64.random(in: Int64.min...Int64.max, using: &random) }
        ids += (1...500).map { Int64($0) }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let inSQL = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT value AS id, \(GlobalControlDraw.drawSQL(user: "value")) AS draw FROM json_each(?)",
                arguments: [list]
            )
            .map { ($0["id"] as Int64, $0["draw"] as Int) }
        }
        #expect(inSQL.count == ids.count)
        for (id, draw) in inSQL {
            let defined = Self.definedDraw(id, key)
            #expect(draw == defined, "id \(id)")
            #expect(GlobalControlDraw.draw(user: id, key: key) == defined, "id \(id)")
        }
    }

    @Test func theShareIsTheSameAmongUsersWhoSignUpLater() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let key = try await Self.key(database)
        for percent in [5, 10, 20] {
            for range in [Int64(1)...100_000, 100_001...200_000, 5_000_001...5_100_000] {
                let members = range.filter { Self.definedDraw($0, key) < percent * 100 }.count
                let share = Double(members) / Double(range.count)
                // The key is new in each run: 0.8 points is over 6 standard deviations of a fair
                // draw of 100,000 at 20% (11 at 5%), so only a draw that clumps by id fails it.
                #expect(abs(share - Double(percent) / 100) < 0.008, "\(percent)% in \(range): \(share)")
            }
        }
    }

    @Test func membersStayTheSameAfterARestartAndRaisingTheShareKeepsThem() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        var database = try await PanelDatabase.open(path: temp.path)
        #expect(try await Self.members(database).isEmpty)
        try await GlobalControl(database: database).set(percent: 5, by: .commandLine, now: Self.launch)
        let atFive = try await Self.members(database)
        let users = try await database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM users") }
        let key = try await Self.key(database)
        #expect(atFive == Set(users.filter { Self.definedDraw($0, key) < 500 }))
        #expect(!atFive.isEmpty && atFive.count < 60, "\(atFive.count) of \(users.count)")

        // A restart: the file opened again.
        database = try await PanelDatabase.open(path: temp.path)
        #expect(try await Self.members(database) == atFive)
        #expect(try await Self.key(database) == key)

        let control = GlobalControl(database: database)
        try await control.set(percent: 10, by: .commandLine, now: Self.launch.addingTimeInterval(3_600))
        let atTen = try await Self.members(database)
        #expect(atFive.isSubset(of: atTen) && atTen.count > atFive.count)
        #expect(atTen == Set(users.filter { Self.definedDraw($0, key) < 1_000 }))
        // Lowering it again releases exactly those it added.
        try await control.set(percent: 5, by: .commandLine, now: Self.launch.addingTimeInterval(7_200))
        #expect(try await Self.members(database) == atFive)
    }

    @Test func sinceIsTheStartOfTheUnbrokenRunOfSharesThatTakeTheUser() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let key = try await Self.key(database)
        let ids = Int64(1)...50_000
        let early = try #require(ids.first { Self.definedDraw($0, key) < 500 })
        let added = try #require(ids.first { (500..<1_000).contains(Self.definedDraw($0, key)) })
        let never = try #require(ids.first { Self.definedDraw($0, key) >= 1_000 })
        let control = GlobalControl(database: database)
        let (t1, t2, t3) = (
            Self.launch, Self.launch.addingTimeInterval(86_400), Self.launch.addingTimeInterval(172_800)
        )
        try await control.set(percent: 5, by: .commandLine, now: t1)
        try await control.set(percent: 10, by: .commandLine, now: t2)
        #expect(try await control.membership(of: early) == .init(since: PanelTime(t1), percent: 10))
        #expect(try await control.membership(of: added) == .init(since: PanelTime(t2), percent: 10))
        #expect(try await control.membership(of: never) == nil)
        try await control.set(percent: 5, by: .commandLine, now: t3)
        #expect(try await control.membership(of: added) == nil)
        #expect(try await control.membership(of: early) == .init(since: PanelTime(t1), percent: 5))
        try await control.set(percent: 0, by: .commandLine, now: t3.addingTimeInterval(60))
        try await control.set(percent: 20, by: .commandLine, now: t3.addingTimeInterval(120))
        // Released at 0%: a member again only since the share came back.
        #expect(
            try await control.membership(of: early) == .init(since: PanelTime(t3.addingTimeInterval(120)), percent: 20))
        let history = try await control.settings().history
        #expect(history.map(\.percent) == [5, 10, 5, 0, 20])
        #expect(history.allSatisfy { $0.by == "cli" })
    }

    @Test func aShareOutsideZeroToTwentyOrTheSameAgainIsRefusedAndEveryChangeIsAudited() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        for typed in ["", "abc", "5.5", "-1", "21", "100", "\u{202E}5", "5 5", "0x5", "٥"] {
            #expect(throws: GlobalControlRefusal.self, "\(typed)") { try GlobalControl.percent(typed: typed).get() }
        }
        for (typed, percent) in [("5", 5), (" 7 ", 7), ("10%", 10), ("0", 0), ("20", 20)] {
            #expect(try GlobalControl.percent(typed: typed).get() == percent)
        }
        let control = GlobalControl(database: database)
        await #expect(throws: GlobalControlRefusal.self) { try await control.set(percent: 21, by: .commandLine) }
        await #expect(throws: GlobalControlRefusal.self) { try await control.set(percent: -1, by: .commandLine) }
        try await control.set(percent: 5, by: .commandLine, now: Self.launch)
        await #expect(throws: GlobalControlRefusal.self) { try await control.set(percent: 5, by: .commandLine) }
        let audit = try await DatabaseQueue(path: temp.path).read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT actor_email, target, detail FROM panel_audit_log WHERE action = 'global_control_changed'"
            ).map { [$0["actor_email"] as String?, $0["target"], $0["detail"]] }
        }
        #expect(audit == [["cli", "setting:global_control", "share 0% → 5%"]])
        #expect(try await control.settings().history.map(\.percent) == [5])
    }

    /// The preview and the freeze leave members out with the reason "global control group",
    /// and the campaign counts them; the users are those of a campaign launched before at 0%,
    /// less the members the definition names.
    @Test func thePreviewAndTheFreezeLeaveMembersOutAndCountThem() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let before = try await campaigns.create(
            CampaignDraft(title: "everyone", body: "b"), by: .commandLine, now: Self.launch)
        try await campaigns.begin(before, schedule: .now, by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches()
        let reached = try await Self.deliveryUsers(before, path: temp.path)
        try #require(reached.count > 100)

        try await GlobalControl(database: database).set(percent: 20, by: .commandLine, now: Self.launch)
        let key = try await Self.key(database)
        let members = reached.filter { Self.definedDraw($0, key) < 2_000 }
        try #require(!members.isEmpty)
        let preview = try await Audience().preview(CampaignSegment(), schedule: .now, in: database, now: Self.launch)
        #expect(preview.counts.excludedUsers[.globalControl] == members.count)
        #expect(preview.counts.reachableUsers == reached.count - members.count)

        let after = try await campaigns.create(
            CampaignDraft(title: "after the share", body: "b"), by: .commandLine, now: Self.launch)
        try await campaigns.begin(after, schedule: .now, by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches()
        #expect(try await Self.deliveryUsers(after, path: temp.path) == reached.subtracting(members))
        let counted = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(db, sql: "SELECT control_users FROM panel_campaigns WHERE id = ?", arguments: [after])
        }
        #expect(counted == members.count)
        #expect(try await campaigns.find(after)?.totals.controlUsers == members.count)
    }

    /// Issue 48's acceptance: a member whose campaign was frozen before the share was raised
    /// is not sent at the claim, with the reason; everyone else is.
    @Test func aMemberFrozenBeforeTheShareWasRaisedIsNotSentAtTheClaim() async throws {
        let (temp, database) = try await SendTimeRulesTests.prepare()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let due = Self.launch.addingTimeInterval(180)
        let id = try await campaigns.create(
            CampaignDraft(title: "soon", body: "b", schedule: .at(due)), by: .commandLine, now: Self.launch)
        try await campaigns.begin(id, schedule: .at(due), by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches()
        let frozen = try await Self.deliveryUsers(id, path: temp.path)
        try await GlobalControl(database: database).set(
            percent: 20, by: .commandLine, now: Self.launch.addingTimeInterval(60))
        let key = try await Self.key(database)
        let members = frozen.filter { Self.definedDraw($0, key) < 2_000 }
        try #require(!members.isEmpty && members.count < frozen.count)

        try await SendTimeRulesTests.sendAll(DeliveryOutbox(database: database), now: due.addingTimeInterval(1))
        let states = try await SendTimeRulesTests.states(id, path: temp.path)
        for user in members { #expect(states[user] == ["excluded"], "user \(user): \(states[user] ?? [])") }
        for user in frozen.subtracting(members) {
            #expect(states[user] == ["accepted"], "user \(user): \(states[user] ?? [])")
        }
        let details = try await DatabaseQueue(path: temp.path).read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: "SELECT DISTINCT detail FROM panel_deliveries WHERE campaign_id = ? AND state = 'excluded'",
                    arguments: [id]))
        }
        #expect(details == ["no longer in the audience when due: global control group"])
    }

    /// Test sends go to test users in the group: they are staff's phones, not the program.
    @Test func testSendsStillReachAMember() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: Self.launch)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        try await GlobalControl(database: database).set(percent: 20, by: .commandLine, now: Self.launch)
        let key = try await Self.key(database)
        let reached = try await Audience().preview(CampaignSegment(), schedule: .now, in: database, now: Self.launch)
        try #require((reached.counts.excludedUsers[.globalControl] ?? 0) > 0)
        // A member with a device a campaign could reach, were they not in the group.
        let member = try await DatabaseQueue(path: temp.path).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT u.id, CAST(u.email AS TEXT) AS email FROM users u
                    JOIN devices d ON d.user_id = u.id AND d.push_permission = 'granted' AND d.push_token <> ''
                      AND d.push_provider IN ('fcm', 'apns')
                    JOIN notification_settings s ON s.user_id = u.id AND s.push_enabled = 1 AND s.marketing_opt_in = 1
                    WHERE u.status = 'active' ORDER BY u.id
                    """
            ).first { Self.definedDraw($0["id"], key) < 2_000 }.map { ($0["id"] as Int64, $0["email"] as String) }
        }
        let (userID, email) = try #require(member)
        let testUsers = TestUsers(database: database)
        _ = try await testUsers.add(email: email, by: .commandLine, now: Self.launch)
        let entry = try #require(try await testUsers.list().first { $0.userID == userID })
        #expect(entry.reachableDevices > 0)
    }

    /// A journey's members exit at their entry with the reason; the others enter.
    @Test func aMemberEnteringAJourneyExitsWithTheReason() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        let campaigns = Campaigns(database: database)
        let probe = try await campaigns.create(
            CampaignDraft(title: "who is reachable", body: "b"), by: .commandLine, now: TemporaryDatabase.seedNow)
        try await campaigns.begin(probe, schedule: .now, by: .commandLine, now: TemporaryDatabase.seedNow)
        try await campaigns.resumeLaunches()
        let reachable = try await Self.deliveryUsers(probe, path: temp.path)
        try #require(reachable.count > 100)
        // They cross the 30 days' trigger inside the evaluation's window, as the backend would stamp it.
        let crossed = TriggerScanTests.text(TriggerScanTests.now - 30 * 86_400 - 30)
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE users SET last_active_at = ? WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [crossed, "[" + reachable.map(String.init).joined(separator: ",") + "]"])
        }
        try await GlobalControl(database: database).set(
            percent: 20, by: .commandLine, now: TemporaryDatabase.seedNow.addingTimeInterval(-3_600))
        let key = try await Self.key(database)
        let members = reachable.filter { Self.definedDraw($0, key) < 2_000 }
        try #require(!members.isEmpty)
        let journey = try await JourneyEntriesTests.journey(queue, reentryDays: nil, status: "sending")
        let evaluator = JourneyEvaluator(database: database)
        _ = try await evaluator.evaluate(journeyID: journey, now: TriggerScanTests.previous)
        _ = try await evaluator.evaluate(journeyID: journey, now: TriggerScanTests.now)
        let entries = try await queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT user_id, state, detail FROM panel_journey_entries WHERE journey_id = ?",
                arguments: [journey]
            ).map { ($0["user_id"] as Int64, ($0["state"] as String, $0["detail"] as String?)) }
        }
        let byUser = Dictionary(entries, uniquingKeysWith: { first, _ in first })
        #expect(Set(byUser.keys).isSuperset(of: reachable))
        for user in members {
            #expect(byUser[user]?.0 == "exited" && byUser[user]?.1 == "global_control", "user \(user)")
        }
        for user in reachable.subtracting(members) {
            #expect(byUser[user]?.0 == "entered", "user \(user): \(String(describing: byUser[user]))")
        }
    }

    static func deliveryUsers(_ campaign: Int64, path: String) async throws -> Set<Int64> {
        try await DatabaseQueue(path: path).read { db in
            Set(
                try Int64.fetchAll(
                    db, sql: "SELECT DISTINCT user_id FROM panel_deliveries WHERE campaign_id = ?",
                    arguments: [campaign]))
        }
    }
}
