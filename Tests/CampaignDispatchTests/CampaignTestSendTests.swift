import AdminDomain
@testable import CampaignDispatch
import Foundation
import GRDB
import PushTemplates
import Testing
import TestSupport

/// Test sends go only to test users' devices that could get a campaign push, ten a minute per
/// staff member, never from an ended campaign; every outcome audited. The strict fake shows
/// what was sent.
@Suite(.timeLimit(.minutes(5))) struct CampaignTestSendTests {
    typealias Setup = CampaignDispatchTests.Setup
    static let marketer = AuditActor.staff(StaffIdentity(adminID: 41, email: "marketing@example.com", role: .marketing), from: "127.0.0.1")

    /// Four users whose devices all have tokens the fake accepts: one fine, one suspended,
    /// one without consent to campaign pushes, one who is no test user.
    static func users(_ setup: Setup) async throws -> (fine: Int64, suspended: Int64, noConsent: Int64, stranger: Int64) {
        try await DatabaseQueue(path: setup.temp.path).write { db in
            try db.execute(sql: """
                INSERT INTO users (id, email, password_hash, display_name, status, created_at) VALUES
                  (930001, 'fine@x.test', 'x', 'Fine', 'active', '2026-01-01 00:00:00'),
                  (930002, 'gone@x.test', 'x', 'Gone', 'suspended', '2026-01-01 00:00:00'),
                  (930003, 'quiet@x.test', 'x', 'Quiet', 'active', '2026-01-01 00:00:00'),
                  (930004, 'other@x.test', 'x', 'Other', 'active', '2026-01-01 00:00:00');
                INSERT INTO notification_settings (user_id, marketing_opt_in) VALUES (930001, 1), (930002, 1), (930003, 0), (930004, 1);
                INSERT INTO devices (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at) VALUES
                  (993001, 930001, 'android', 'fcm', 'test-token-fine', 'granted', '2026-01-01', '2026-11-01'),
                  (993005, 930001, 'android', 'fcm', 'test-token-denied', 'denied', '2026-01-01', '2026-11-01'),
                  (993002, 930002, 'android', 'fcm', 'test-token-gone', 'granted', '2026-01-01', '2026-11-01'),
                  (993003, 930003, 'android', 'fcm', 'test-token-quiet', 'granted', '2026-01-01', '2026-11-01'),
                  (993004, 930004, 'android', 'fcm', 'test-token-other', 'granted', '2026-01-01', '2026-11-01');
                """)
        }
        return (930001, 930002, 930003, 930004)
    }

    @Test func onlyReachableTestUsersGetTestsTenAMinuteAndNeverFromAnEndedCampaign() async throws {
        try await Setup.with { setup in
            let users = try await Self.users(setup)
            let testUsers = TestUsers(database: setup.database)
            for email in ["FINE@x.test", "gone@x.test", "quiet@x.test"] { _ = try await testUsers.add(email: email, by: Self.marketer) }
            await #expect(throws: CampaignError("no app user has the email nobody@x.test: nobody was added")) {
                try await testUsers.add(email: "nobody@x.test", by: Self.marketer)
            }
            #expect(try await testUsers.list().map(\.email) == ["fine@x.test", "gone@x.test", "quiet@x.test"])
            let sender = CampaignTestSend(database: setup.database, push: setup.push, templates: PushTemplateLibrary(), testUsers: testUsers)
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(CampaignDraft(title: "Hi {{display_name}}", body: "b"), by: .commandLine)
            let campaign = try #require(try await campaigns.find(id))

            let refusals: [(Int64, String)] = [
                (users.stranger, "that user is not on the test users list"),
                (users.suspended, "the test user has no device that could get a campaign push"),
                (users.noConsent, "the test user has no device that could get a campaign push"),
            ]
            for (user, sentence) in refusals {
                do {
                    _ = try await sender.send(campaign, toUser: user, by: Self.marketer)
                    Issue.record("sent to user #\(user)")
                } catch let error as CampaignError {
                    #expect(error.description.hasPrefix(sentence), "\(error.description)")
                }
            }
            #expect(await setup.server.state.deliveryIDs.isEmpty, "nothing was sent")

            // Ten go out, to the one device that may get campaign pushes, filled for the user.
            for _ in 1...10 {
                let lines = try await sender.send(campaign, toUser: users.fine, by: Self.marketer)
                #expect(lines.map(\.deviceID) == [993001] && lines.first?.title == "Hi Fine")
            }
            await #expect(throws: CampaignError("you have made 10 test sends in the last minute; wait a minute and try again", isRateLimit: true)) {
                try await sender.send(campaign, toUser: users.fine, by: Self.marketer)
            }
            #expect(await setup.server.state.deliveryIDs.values.reduce(0, +) == 10)

            try await campaigns.launch(id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
            _ = try await campaigns.cancel(id, by: .commandLine)
            let cancelled = try #require(try await campaigns.find(id))
            let other = AuditActor.staff(StaffIdentity(adminID: 42, email: "m2@example.com", role: .marketing), from: nil)
            await #expect(throws: CampaignError("campaign #\(id) is cancelled: test sends are for campaigns still to come")) {
                try await sender.send(cancelled, toUser: users.fine, by: other)
            }
            #expect(await setup.server.state.deliveryIDs.values.reduce(0, +) == 10)

            let audited = try await setup.database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT action, target FROM panel_audit_log WHERE action IN ('campaign_test_sent', 'campaign_test_refused', 'test_user_added') ORDER BY id
                    """).map { "\($0[0] as String) \($0[1] as String)" }
            }
            #expect(audited == ["test_user_added user:930001", "test_user_added user:930002", "test_user_added user:930003",
                                "campaign_test_refused user:930004", "campaign_test_refused user:930002", "campaign_test_refused user:930003"]
                    + Array(repeating: "campaign_test_sent user:930001", count: 10)
                    + ["campaign_test_refused user:930001", "campaign_test_refused user:930001"])
            let perDevice = try await setup.database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'push_test_sent' AND target = 'user:930001'") ?? -1
            }
            #expect(perDevice == 10, "each device's outcome is audited")
        }
    }
}
