import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Issue 48, what a push costs: opt-outs planted after a push, in the holdout and in the
/// global control group give the counts exactly; nothing is read before 72 hours, a restart
/// inside the window loses no reading, and nothing is read twice.
@Suite(.timeLimit(.minutes(20))) struct PushCostTests {
    static let launch = SendTimeRulesTests.launch
    static let hours: TimeInterval = 3_600

    static func users(_ sql: String, _ path: String, _ arguments: StatementArguments = []) async throws -> Set<Int64> {
        try await DatabaseQueue(path: path).read { db in Set(try Int64.fetchAll(db, sql: sql, arguments: arguments)) }
    }

    @Test func optOutsPlantedAfterAPushInTheHoldoutAndInTheControlAreCountedOnceAfter72Hours() async throws {
        let (temp, database) = try await SendTimeRulesTests.prepare()
        defer { temp.remove() }
        try await GlobalControl(database: database).set(percent: 20, by: .commandLine, now: Self.launch)
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(
            CampaignDraft(title: "t", body: "b", experiment: CampaignExperiment(holdoutPercent: 20)),
            by: .commandLine, now: Self.launch)
        try await campaigns.begin(id, schedule: .now, by: .commandLine, now: Self.launch)
        try await campaigns.resumeLaunches(now: Self.launch)
        try await SendTimeRulesTests.sendAll(DeliveryOutbox(database: database), now: Self.launch)

        // Only users with a settings row can turn a setting off.
        let withSettings = "AND user_id IN (SELECT user_id FROM notification_settings)"
        let recipients = try await Self.users(
            "SELECT DISTINCT user_id FROM panel_deliveries WHERE campaign_id = ? AND state = 'accepted'", temp.path,
            [id])
        let holdout = try await Self.users(
            "SELECT user_id FROM panel_campaign_members WHERE campaign_id = ? AND arm = 'holdout'", temp.path, [id])
        let key = try #require(try await database.read { db in try GlobalControlDraw.key(in: db) })
        let everyone = try await Self.users("SELECT id FROM users", temp.path)
        let control = try await Self.users(
            "SELECT user_id FROM panel_consent_readings WHERE campaign_id = ? AND grp = 'control'", temp.path, [id])
        // The control's readings are of exactly the audience's members the definition draws.
        #expect(control == everyone.subtracting(recipients).subtracting(holdout).intersection(control))
        #expect(control.allSatisfy { GlobalControlDefinition.draw($0, key) < 2_000 })
        #expect(recipients.allSatisfy { GlobalControlDefinition.draw($0, key) >= 2_000 })
        #expect(recipients.isDisjoint(with: holdout))
        let settled = try await Self.users(
            "SELECT DISTINCT user_id FROM panel_deliveries WHERE campaign_id = ? \(withSettings)", temp.path, [id])
        let plantable = recipients.intersection(settled).sorted()
        let heldPlantable = holdout.intersection(
            try await Self.users("SELECT user_id FROM notification_settings", temp.path)
        ).sorted()
        let controlPlantable = control.intersection(
            try await Self.users("SELECT user_id FROM notification_settings", temp.path)
        ).sorted()
        try #require(plantable.count >= 8 && heldPlantable.count >= 3 && !controlPlantable.isEmpty)
        let (marketingOff, pushOff, denied, suspended) = (
            Array(plantable[0..<3]), Array(plantable[3..<5]), Array(plantable[5..<7]), [plantable[7]]
        )

        // 71 hours on: nothing is read yet.
        let early = try await ConsentReadings(database: database).run(
            now: Self.launch.addingTimeInterval(71 * Self.hours))
        #expect(early == .init())

        // The backend's changes inside the window.
        try await DatabaseQueue(path: temp.path).write { db in
            func each(_ ids: [Int64], _ sql: String) throws {
                for user in ids { try db.execute(sql: sql, arguments: [user]) }
            }
            try each(
                marketingOff + heldPlantable.prefix(2) + controlPlantable.prefix(1),
                "UPDATE notification_settings SET marketing_opt_in = 0 WHERE user_id = ?")
            try each(
                pushOff + [heldPlantable[2]], "UPDATE notification_settings SET push_enabled = 0 WHERE user_id = ?")
            try each(denied, "UPDATE devices SET push_permission = 'denied', push_token = NULL WHERE user_id = ?")
            try each(suspended, "UPDATE users SET status = 'suspended' WHERE id = ?")
        }
        // A restart inside the window: a new process reads them at 73 hours.
        let restarted = try await PanelDatabase.open(path: temp.path)
        let read = try await ConsentReadings(database: restarted, batch: 7).run(
            now: Self.launch.addingTimeInterval(73 * Self.hours))
        #expect(read.membersRead == holdout.count + control.count)
        let cost = try #require(try await campaigns.costs([id])[id])
        #expect(
            cost.recipients
                == PushCost.Group(
                    users: recipients.count, marketingOff: 3, pushOff: 2, permissionOff: 2, gone: 1))
        #expect(cost.holdout == PushCost.Group(users: holdout.count, marketingOff: 2, pushOff: 1))
        #expect(cost.control == PushCost.Group(users: control.count, marketingOff: 1))
        #expect(cost.baseline?.kind == .holdout)
        // Newcombe's interval of 3 of the recipients read against 2 of the holdout's.
        let difference = try #require(cost.difference(.marketing))
        #expect(
            difference
                == LiftInterval(converted: 3, of: recipients.count - 1, against: 2, of: holdout.count))
        #expect(abs(difference.difference - (3 / Double(recipients.count - 1) - 2 / Double(holdout.count))) < 1e-12)

        // Read again later: nothing twice.
        let again = try await ConsentReadings(database: database).run(
            now: Self.launch.addingTimeInterval(90 * Self.hours))
        #expect(again == .init())
        #expect(try await campaigns.costs([id])[id] == cost)
        let unread = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND consent_sent_at IS NOT NULL AND consent_after IS NULL",
                arguments: [id])
        }
        #expect(unread == 0)
    }

    /// `exceedsBaseline` against intervals worked out by hand: 30 of 1,000 recipients against 2
    /// of 1,000 holdout members is a difference of 2.8 points, far outside chance; 3 against 2
    /// is not.
    @Test func aCostBeyondChanceIsFlaggedAndOneWithinItIsNot() {
        let beyond = PushCost(
            recipients: .init(users: 1_000, marketingOff: 30), holdout: .init(users: 1_000, marketingOff: 2))
        #expect(beyond.exceedsBaseline)
        let within = PushCost(
            recipients: .init(users: 1_000, marketingOff: 3), holdout: .init(users: 1_000, marketingOff: 2))
        #expect(!within.exceedsBaseline)
        // Without a holdout, the global control group is the baseline; with neither, no flag.
        let control = PushCost(recipients: .init(users: 1_000, pushOff: 30), control: .init(users: 500, pushOff: 1))
        #expect(control.baseline?.kind == .control && control.exceedsBaseline)
        #expect(!PushCost(recipients: .init(users: 1_000, pushOff: 300)).exceedsBaseline)
        // Gone accounts are out of the shares: 30 of 1,000 with 990 gone is 30 of 10.
        #expect(PushCost.Group(users: 1_000, gone: 990).counted == 10)
    }
}
