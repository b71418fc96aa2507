import AdminDomain
import Foundation
import GRDB
import PushTemplates
import TestSupport
import Testing

@testable import CampaignDispatch

/// Test sends go only to test users' devices that could get a campaign push, ten a minute per
/// staff member, never from an ended campaign; every outcome audited. The strict fake shows
/// what was sent.
@Suite(.timeLimit(.minutes(20))) struct CampaignTestSendTests {
    typealias Setup = CampaignDispatchTests.Setup
    static let marketer = AuditActor.staff(
        StaffIdentity(adminID: 41, email: "marketing@example.com", role: .marketing), from: "127.0.0.1")

    /// Four users whose devices all have tokens the fake accepts: one fine, one suspended,
    /// one without consent to campaign pushes, one who is no test user.
    static func users(_ setup: Setup) async throws -> (fine: Int64, suspended: Int64, noConsent: Int64, stranger: Int64)
    {
        try await DatabaseQueue(path: setup.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, display_name, status, created_at) VALUES
                      (930001, 'fine@x.test', 'x', 'Fine', 'active', '2026-01-01 00:00:00'),
                      (930002, 'gone@x.test', 'x', 'Gone', 'suspended', '2026-01-01 00:00:00'),
                      (930003, 'quiet@x.test', 'x', 'Quiet', 'active', '2026-01-01 00:00:00'),
                      (930004, 'other@x.test', 'x', 'Other', 'active', '2026-01-01 00:00:00');
                    INSERT INTO notification_settings (user_id, marketing_opt_in)
                    VALUES (930001, 1), (930002, 1), (930003, 0), (930004, 1);
                    INSERT INTO devices (
                      id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES
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
            let testUsers = TestUsers(database: setup.database, domains: try TestUserDomains(["x.test"]))
            for email in ["FINE@x.test", "gone@x.test", "quiet@x.test"] {
                _ = try await testUsers.add(email: email, by: Self.marketer)
            }
            await #expect(throws: CampaignError("no app user has the email nobody@x.test: nobody was added")) {
                try await testUsers.add(email: "nobody@x.test", by: Self.marketer)
            }
            #expect(try await testUsers.list().map(\.email) == ["fine@x.test", "gone@x.test", "quiet@x.test"])
            let sender = CampaignTestSend(
                database: setup.database, push: setup.push, templates: PushTemplateLibrary(), testUsers: testUsers)
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "Hi {{display_name}}", body: "b"), by: .commandLine)
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
            await #expect(
                throws: CampaignError(
                    "you have made 10 test sends in the last minute; wait a minute and try again", isRateLimit: true)
            ) {
                try await sender.send(campaign, toUser: users.fine, by: Self.marketer)
            }
            #expect(await setup.server.state.deliveryIDs.values.reduce(0, +) == 10)

            try await campaigns.beginAndFreeze(id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
            _ = try await campaigns.cancel(id, by: .commandLine)
            let cancelled = try #require(try await campaigns.find(id))
            let other = AuditActor.staff(
                StaffIdentity(adminID: 42, email: "m2@example.com", role: .marketing), from: nil)
            await #expect(
                throws: CampaignError("campaign #\(id) is cancelled: test sends are for campaigns still to come")
            ) {
                try await sender.send(cancelled, toUser: users.fine, by: other)
            }
            #expect(await setup.server.state.deliveryIDs.values.reduce(0, +) == 10)

            let audited = try await setup.database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT action, target FROM panel_audit_log
                        WHERE action IN ('campaign_test_sent', 'campaign_test_refused', 'test_user_added') ORDER BY id
                        """
                ).map { "\($0[0] as String) \($0[1] as String)" }
            }
            #expect(
                audited == [
                    "test_user_added user:930001", "test_user_added user:930002", "test_user_added user:930003",
                    "campaign_test_refused user:930004", "campaign_test_refused user:930002",
                    "campaign_test_refused user:930003",
                ]
                    + Array(repeating: "campaign_test_sent user:930001", count: 10)
                    + ["campaign_test_refused user:930001", "campaign_test_refused user:930001"])
            let perDevice = try await setup.database.read { db in
                try Int.fetchOne(
                    db,
                    sql:
                        """
                        SELECT COUNT(*) FROM panel_audit_log WHERE action = 'push_test_sent' AND target = 'user:930001'
                        """
                ) ?? -1
            }
            #expect(perDevice == 10, "each device's outcome is audited")
        }
    }

    static let admin = AuditActor.staff(
        StaffIdentity(adminID: 40, email: "admin@example.com", role: .admin), from: "127.0.0.1")

    /// Finding 5: marketing pushed one test user ten times a minute, past any cap. Ten test
    /// sends in 24 hours reach a test user, from all staff together; the eleventh is refused,
    /// audited, and says when the next may go.
    @Test func theEleventhTestSendOfADayToOneTestUserIsRefusedAndAudited() async throws {
        try await Setup.with { setup in
            let users = try await Self.users(setup)
            let testUsers = TestUsers(database: setup.database)
            _ = try await testUsers.add(email: "fine@x.test", by: Self.admin)
            let sender = CampaignTestSend(
                database: setup.database, push: setup.push, templates: PushTemplateLibrary(), testUsers: testUsers)
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(title: "Hi {{display_name}}", body: "b"), by: .commandLine)
            let campaign = try #require(try await campaigns.find(id))
            let now = Date()
            // Ten over the last five hours, ten minutes apart: no staff member's minute limit is reached.
            for minutes in stride(from: 300, to: 200, by: -10) {
                _ = try await sender.send(
                    campaign, toUser: users.fine, by: Self.marketer, now: now.addingTimeInterval(-Double(minutes) * 60))
            }
            let colleague = AuditActor.staff(
                StaffIdentity(adminID: 42, email: "m2@example.com", role: .marketing), from: nil)
            let oldest = SQLiteTime.string(now.addingTimeInterval(-300 * 60 + 86_400)).prefix(16)
            await #expect(
                throws: CampaignError(
                    "this test user has had 10 test sends in the last 24 hours, from all staff together; "
                        + "the next may go at \(oldest) UTC", isRateLimit: true)
            ) {
                try await sender.send(campaign, toUser: users.fine, by: colleague, now: now)
            }
            #expect(await setup.server.state.deliveryIDs.values.reduce(0, +) == 10, "the eleventh reached no provider")
            let last = try await setup.database.read { db in
                try Row.fetchOne(
                    db,
                    sql:
                        """
                        SELECT action, target, detail, actor_email FROM panel_audit_log WHERE action LIKE \
                        'campaign_test_%' ORDER BY id DESC LIMIT 1
                        """
                )
                .map { [$0["action"], $0["target"], $0["detail"], $0["actor_email"]] as [String?] }
            }
            #expect(last?[0] == "campaign_test_refused" && last?[1] == "user:930001" && last?[3] == "m2@example.com")
            #expect(last?[2]?.contains("10 test sends in the last 24 hours") == true)
            // Once the oldest is a day old, there is a place again.
            let lines = try await sender.send(
                campaign, toUser: users.fine, by: colleague, now: now.addingTimeInterval(-300 * 60 + 86_400 + 1))
            #expect(lines.map(\.deviceID) == [993001])
        }
    }

    /// Finding 5: a test push reached a user in their quiet hours. Refused, saying when they
    /// end (in the user's own timezone, and in UTC); sent once they have.
    @Test func aTestSendInTheTestUsersQuietHoursIsRefusedSayingWhenTheyEnd() async throws {
        try await Setup.with { setup in
            let users = try await Self.users(setup)
            try await DatabaseQueue(path: setup.temp.path).write { db in
                try db.execute(sql: "UPDATE users SET timezone = 'Asia/Tokyo' WHERE id = ?", arguments: [users.fine])
                try db.execute(
                    sql:
                        "UPDATE notification_settings SET quiet_start = '22:00', quiet_end = '07:00' WHERE user_id = ?",
                    arguments: [users.fine])
            }
            let testUsers = TestUsers(database: setup.database)
            _ = try await testUsers.add(email: "fine@x.test", by: Self.admin)
            let sender = CampaignTestSend(
                database: setup.database, push: setup.push, templates: PushTemplateLibrary(), testUsers: testUsers)
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(CampaignDraft(title: "Hi", body: "b"), by: .commandLine)
            let campaign = try #require(try await campaigns.find(id))
            // 23:30 in Tokyo (UTC+9, no summer time).
            let lateEvening = try #require(SQLiteTime.date("2026-11-26 14:30:00"))
            do {
                _ = try await sender.send(campaign, toUser: users.fine, by: Self.marketer, now: lateEvening)
                Issue.record("a test push went out at 23:30 in the user's quiet hours")
            } catch let error as CampaignError {
                #expect(error.description.contains("quiet hours"), "\(error.description)")
                #expect(
                    error.description.contains("07:00") && error.description.contains("2026-11-26 22:00 UTC"),
                    "\(error.description)")
            }
            #expect(await setup.server.state.deliveryIDs.isEmpty, "nothing was sent")
            let refused = try await setup.database.read { db in
                try Int.fetchOne(
                    db,
                    sql:
                        """
                        SELECT COUNT(*) FROM panel_audit_log WHERE action = 'campaign_test_refused' AND target = \
                        'user:930001'
                        """
                ) ?? 0
            }
            #expect(refused == 1)
            let morning = try #require(SQLiteTime.date("2026-11-26 22:00:00"))
            #expect(
                try await sender.send(campaign, toUser: users.fine, by: Self.marketer, now: morning).map(\.deviceID)
                    == [993001])
        }
    }

    /// Finding 7: variants B to D could not be test-sent. A test of variant B sends B's text,
    /// filled for the test user: what the strict fake received says so.
    @Test func aTestSendOfVariantBSendsBsText() async throws {
        try await Setup.with { setup in
            let users = try await Self.users(setup)
            let testUsers = TestUsers(database: setup.database)
            _ = try await testUsers.add(email: "fine@x.test", by: Self.admin)
            let sender = CampaignTestSend(
                database: setup.database, push: setup.push, templates: PushTemplateLibrary(), testUsers: testUsers)
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(
                CampaignDraft(
                    title: "A title", body: "A body",
                    experiment: CampaignExperiment(variants: [
                        VariantMessage(variant: .b, title: "B for {{display_name}}", body: "B body"),
                        VariantMessage(variant: .c, title: "C title", body: "C body"),
                    ])), by: .commandLine)
            let campaign = try #require(try await campaigns.find(id))
            await setup.server.state.setRecording(true)
            let lines = try await sender.send(campaign, variant: .b, toUser: users.fine, by: Self.marketer)
            #expect(lines.map(\.title) == ["B for Fine"] && lines.map(\.body) == ["B body"])
            let received = try #require(await setup.server.state.lastFCM)
            let body = try #require(try JSONSerialization.jsonObject(with: received.body) as? [String: Any])
            let message = try #require(body["message"] as? [String: Any])
            #expect(message["notification"] as? [String: String] == ["title": "B for Fine", "body": "B body"])
            await #expect(throws: CampaignError("campaign #\(id) has no variant D: choose one of A, B, C")) {
                try await sender.send(campaign, variant: .d, toUser: users.fine, by: Self.marketer)
            }
            let detail = try await setup.database.read { db in
                try String.fetchOne(
                    db,
                    sql:
                        """
                        SELECT detail FROM panel_audit_log WHERE action = 'campaign_test_sent' ORDER BY id DESC LIMIT 1
                        """
                )
            }
            #expect(detail?.contains("variant B") == true)
        }
    }
}
