import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// The preview's timing counts, the receipts that feed the live page, and what the
/// placeholders are filled with: each checked against the rows themselves.
@Suite(.timeLimit(.minutes(20))) struct CampaignLive {
    static let now = SendTimeTests.date("2026-11-20 23:00:00")

    /// Four users in one sign-up day: two with quiet hours at 23:00 UTC (one over midnight,
    /// one malformed), one in a timezone that is not one.
    static func prepare() async throws -> (TemporaryDatabase, PanelDatabase) {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        try await DatabaseQueue(path: temp.path).write { db in
            // Hostile rows too: the app's CHECKs are not the panel's guarantee.
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(
                sql: """
                    INSERT INTO users
                      (id, email, password_hash, display_name, timezone, locale, created_at, last_active_at)
                    VALUES
                      (920001, 'a@x.test', 'x', 'Ana', 'Europe/Lisbon', 'pt-BR', '2026-01-01 00:00:00',
                        '2026-11-17 00:00:00'),
                      (920002, 'b@x.test', 'x', NULL, 'Asia/Tokyo', 'en-US', '2026-01-01 00:00:00',
                        '2026-11-17 00:00:00'),
                      (920003, 'c@x.test', 'x', 'Céu <b>', 'Mars/Olympus_Mons', 'fr', '2026-01-01 00:00:00',
                        '2026-11-17 00:00:00'),
                      (920004, 'd@x.test', 'x', 'Dee', 'Europe/Lisbon', 'en', '2026-01-01 00:00:00',
                        '2026-11-17 00:00:00');
                    INSERT INTO notification_settings (user_id, quiet_start, quiet_end) VALUES
                      (920001, '22:00', '07:00'), (920002, '7am', '10:15'), (920004, '23:00', '23:30');
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES
                      (992001, 920001, 'android', 'fcm', 'u1', 'granted', '2026-01-01', '2026-11-01'),
                      (992002, 920002, 'ios', 'apns', 'u2', 'granted', '2026-01-01', '2026-11-01'),
                      (992003, 920003, 'android', 'fcm', 'u3', 'granted', '2026-01-01', '2026-11-01'),
                      (992004, 920004, 'ios', 'apns', 'u4', 'granted', '2026-01-01', '2026-11-01'),
                      (992005, 920004, 'android', 'fcm', 'u5', 'granted', '2026-01-01', '2026-11-01'),
                      (992006, 920004, 7, 8, 'u6', 'granted', '2026-01-01', '2026-11-01');
                    INSERT INTO food_items (user_id, name, expiry_date, created_at, updated_at) VALUES
                      (920001, 'Iogurte', '2026-11-23', '2026-11-01', '2026-11-01'),
                      (920001, 'Queijo', '2026-11-25', '2026-11-01', '2026-11-01'),
                      (920001, 'Far away', '2027-03-01', '2026-11-01', '2026-11-01');
                    INSERT INTO documents (user_id, doc_type, title, expiry_date, created_at, updated_at) VALUES
                      (920001, 'passport', 'Passaporte', '2026-11-21', '2026-11-01', '2026-11-01');
                    """)
        }
        return (temp, try await PanelDatabase.open(path: temp.path))
    }

    static let segment = CampaignSegment(signedUpFrom: Day("2026-01-01"), signedUpTo: Day("2026-01-01"))

    @Test func thePreviewCountsQuietHoursBadTimezonesAndMalformedQuietHoursAsTheLaunchDoes() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let preview = try await Audience().preview(Self.segment, schedule: .now, in: database, now: Self.now, ranges: 3)
        // A device whose platform and provider are numbers is counted, not a crash.
        #expect(preview.counts.excludedDevices[.unknownProvider] == 1)
        #expect(preview.counts.reachableUsers == 4)
        #expect(preview.counts.reachableDevices == 5)
        // 23:00 UTC: Lisbon's 22:00–07:00 and Dee's 23:00–23:30 hold two users, three devices.
        #expect(preview.inQuietHours == 3)
        #expect(preview.invalidTimeZones == 1)
        #expect(preview.malformedQuietHours == 1)
        #expect(preview.samples.map(\.userID) == [920001, 920002, 920003, 920004])
        #expect(preview.samples[2].timeZone == "Mars/Olympus_Mons")

        // The launch at the same moment moves exactly those.
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(
            CampaignDraft(title: "t", body: "b", segment: Self.segment), by: .commandLine, now: Self.now)
        try await campaigns.beginAndFreeze(id, by: .commandLine, now: Self.now)
        let moved = try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND due_at > ?",
                arguments: [id, SQLiteTime.string(Self.now)])
        }
        #expect(moved == preview.inQuietHours)
        // Ranges, however many, add up to the same.
        let one = try await Audience().preview(Self.segment, schedule: .now, in: database, now: Self.now, ranges: 1)
        #expect(
            one.counts.reachableDevices == preview.counts.reachableDevices && one.inQuietHours == preview.inQuietHours)
    }

    @Test func receiptsMarkTheirDeliveriesOnceAndTheCursorGoesOnWhereItWas() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(
            CampaignDraft(title: "t", body: "b", segment: Self.segment), by: .commandLine, now: Self.now)
        try await campaigns.beginAndFreeze(id, by: .commandLine, now: Self.now)
        let rows = try await database.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM panel_deliveries WHERE campaign_id = ? ORDER BY id", arguments: [id])
        }
        #expect(rows.count == 5)
        // Receipts count only for pushes that went out: these did (the test plays the dispatcher).
        try await database.write { db in try db.execute(sql: "UPDATE panel_deliveries SET state = 'accepted'") }
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            let at = "2026-11-21 00:00:0"
            let receipts: [(String, String, String)] = [
                ("c\(id)-\(rows[0])", "received", at + "1"), ("c\(id)-\(rows[0])", "received", at + "2"),  // a repeat
                ("c\(id)-\(rows[0])", "opened", at + "3"),
                ("c\(id)-\(rows[1])", "opened", at + "3"),  // opened implies received
                ("c\(id)-\(rows[2])", "received", at + "4"),
                ("c\(id + 1)-\(rows[3])", "received", at + "4"),  // another campaign's id for this row
                ("c\(id)-x", "received", at + "4"), ("'; DROP TABLE x", "opened", at + "4"), ("", "received", at + "4"),
                ("c\(id)-\(rows[4])", "bounced", at + "5"),  // not an event the schema allows
            ]
            for (delivery, event, created) in receipts {
                try db.execute(
                    sql: "INSERT INTO push_receipts (delivery_id, event, created_at) VALUES (?, ?, ?)",
                    arguments: [delivery, event, created])
            }
        }
        let poller = ReceiptPoller(database: database, batchSize: 3)
        // Every receipt in the table is read once, the seeded app's own ones too.
        let all = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_receipts") ?? -1
        }
        #expect(all >= 10)
        #expect(try await poller.poll() == all)
        var progress = try await campaigns.progress(id, now: Self.now)
        // "bounced" is no event the app writes: it counts as nothing.
        #expect(progress.received == 3 && progress.opened == 2)
        #expect(try await poller.poll() == 0, "nothing is read twice")
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(
                sql:
                    "INSERT INTO push_receipts (delivery_id, event, created_at) "
                    + "VALUES (?, 'opened', '2026-11-21 00:00:09')",
                arguments: ["c\(id)-\(rows[2])"])
        }
        #expect(try await ReceiptPoller(database: database).poll() == 1, "a new poller goes on from the stored cursor")
        progress = try await campaigns.progress(id, now: Self.now)
        #expect(progress.received == 3 && progress.opened == 3 && progress.total == 5 && progress.status == "sending")
        // The list's running totals agree with the counts.
        let totals = try #require(try await campaigns.find(id)).totals
        #expect(totals == .init(audience: 5, accepted: 0, received: 3, opened: 3))

        let pushes = try await CampaignPushOfUser.latest(userID: 920001, in: database)
        #expect(pushes.count == 1 && pushes.first?.receipt == 2 && pushes.first?.campaignID == id)
    }

    /// The four reachable users of the fixture: Ana has a name, two items and a passport
    /// due within the week; user 920002 has no name; nobody else has anything due.
    @Test func thePreviewCountsTheRecipientsWhoWouldGetAFallback() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let all = try await Audience().preview(
            Self.segment, schedule: .now, fallbacks: Set(FallbackGroup.allCases), in: database,
            now: SendTimeTests.date("2026-11-20 12:00:00"), ranges: 3)
        #expect(all.counts.reachableUsers == 4)
        #expect(all.fallbackUsers == [.name: 1, .items: 3, .documents: 3])
        let plain = try await Audience().preview(
            Self.segment, schedule: .now, in: database, now: SendTimeTests.date("2026-11-20 12:00:00"))
        #expect(plain.fallbackUsers.isEmpty, "a message without placeholders counts none")
        #expect(FallbackGroup.used(by: ["display_name", "document_days_left"]) == [.name, .documents])
        #expect(FallbackGroup.used(by: ["plan"]).isEmpty)
    }

    @Test func recipientValuesComeFromTheUsersRowsAndItemsDueWithinAWeek() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let values = try await RecipientValues.load(
            [920001, 920002, 999_999], in: database, now: SendTimeTests.date("2026-11-20 12:00:00"))
        #expect(values.count == 2)
        let ana = try #require(values[920001])
        #expect(ana.locale == "pt-BR")
        #expect(
            ana.values == [
                "display_name": "Ana", "plan": "free", "expiring_count": "3", "first_expiring_item": "Passaporte",
                "days_left": "1",
                "expiring_documents": "1", "first_expiring_document": "Passaporte", "document_days_left": "1",
            ])
        #expect(values[920002]?.values["display_name"] == nil && values[920002]?.values["expiring_count"] == nil)
    }
}
