import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Receipts whatever their hosts' clocks said: each counted once, by its id, and only for a
/// push that went out. Expectations are SQL over the receipts the test wrote.
@Suite(.timeLimit(.minutes(20))) struct CampaignReceiptTests {
    /// A seeded database with quiet hours cleared (every delivery due now), one campaign to
    /// everyone launched, and every delivery sent and accepted.
    static func sentCampaign() async throws -> (TemporaryDatabase, PanelDatabase, Int64, [Int64]) {
        let temp = try await TemporaryDatabase.seeded(users: 300)
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "UPDATE notification_settings SET quiet_start = NULL, quiet_end = NULL")
        }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await campaigns.beginAndFreeze(id, by: .commandLine)
        let outbox = DeliveryOutbox(database: database)
        while true {
            let claimed = try await outbox.claim(limit: 500)
            if claimed.isEmpty { break }
            try await outbox.record(claimed.map { ($0, .accepted(messageID: "m\($0.rowID)")) })
        }
        let rows = try await database.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM panel_deliveries WHERE campaign_id = ? AND state = 'accepted' ORDER BY id",
                arguments: [id])
        }
        return (temp, database, id, rows)
    }

    static func insertReceipts(_ receipts: [(delivery: String, event: String, createdAt: DatabaseValue)], path: String)
        async throws
    {
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            for receipt in receipts {
                try db.execute(
                    sql: "INSERT INTO push_receipts (delivery_id, event, created_at) VALUES (?, ?, ?)",
                    arguments: [receipt.delivery, receipt.event, receipt.createdAt])
            }
        }
    }

    /// Distinct accepted deliveries of the campaign that have a receipt: what "received" must be.
    static func expectedReceived(_ campaign: Int64, path: String) async throws -> Int {
        try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM panel_deliveries d WHERE d.campaign_id = ?
                      AND d.state IN ('accepted', 'unknown')
                      AND EXISTS (SELECT 1 FROM push_receipts r
                        WHERE r.delivery_id = 'c' || d.campaign_id || '-' || d.id)
                    """, arguments: [campaign]) ?? -1
        }
    }

    @Test func aReceiptFromTheFutureStopsNothingAndOneFromThePastIsStillCounted() async throws {
        let (temp, database, id, rows) = try await Self.sentCampaign()
        defer { temp.remove() }
        #expect(rows.count > 110)
        let now = Date()
        let ahead = SQLiteTime.string(now.addingTimeInterval(3_600))
        let stamped = SQLiteTime.string(now)
        // The poller polls between arrivals, as the panel's tick would: called here, not on
        // the wall clock, so a busy machine cannot make the count late.
        let poller = ReceiptPoller(database: database)
        try await Self.insertReceipts([("c\(id)-\(rows[0])", "received", ahead.databaseValue)], path: temp.path)
        try await poller.poll()
        try await Self.insertReceipts(
            (1...100).map { ("c\(id)-\(rows[$0])", "received", stamped.databaseValue) }, path: temp.path)
        try await poller.poll()
        let received = try await Campaigns(database: database).progress(id).received
        #expect(received == 101, "the receipt from an hour ahead and the 100 after it")
        #expect(try await Self.expectedReceived(id, path: temp.path) == 101)

        // Stamped an hour behind everything read so far, and stamped with no time at all.
        try await Self.insertReceipts(
            [
                ("c\(id)-\(rows[101])", "received", SQLiteTime.string(now.addingTimeInterval(-3_600)).databaseValue),
                ("c\(id)-\(rows[102])", "opened", "not a time".databaseValue),
                ("c\(id)-\(rows[103])", "received", 12_345.databaseValue),
            ], path: temp.path)
        try await poller.poll()
        let progress = try await Campaigns(database: database).progress(id)
        #expect(progress.received == 104 && progress.opened == 1)
        #expect(try await Self.expectedReceived(id, path: temp.path) == 104)
    }

    @Test func repeatsCountOnceAndAReceiptForAPushNeverSentIsIgnored() async throws {
        let (temp, database, id, rows) = try await Self.sentCampaign()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        // A second campaign, cancelled before anything went out.
        let cancelled = try await campaigns.create(CampaignDraft(title: "never", body: "b"), by: .commandLine)
        try await Campaigns(database: database, audience: Audience(frequencyCap: 50)).beginAndFreeze(
            cancelled, by: .commandLine)
        #expect(try await campaigns.cancel(cancelled, by: .commandLine) == 0)
        let never = try #require(
            try await database.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT id FROM panel_deliveries WHERE campaign_id = ? AND state = 'cancelled' LIMIT 1",
                    arguments: [cancelled])
            })
        let at = SQLiteTime.string(Date()).databaseValue
        try await Self.insertReceipts(
            [
                ("c\(id)-\(rows[0])", "received", at), ("c\(id)-\(rows[0])", "received", at),
                ("c\(id)-\(rows[0])", "received", at),
                ("c\(id)-\(rows[1])", "opened", at), ("c\(id)-\(rows[1])", "opened", at),
                ("c\(id)-\(rows[1])", "received", at),
                ("c\(cancelled)-\(never)", "received", at), ("c\(cancelled)-\(never)", "opened", at),
            ], path: temp.path)
        let poller = ReceiptPoller(database: database, batchSize: 3)
        // The seeded app wrote receipts of its own: every receipt is read, once.
        let all = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_receipts") ?? -1
        }
        #expect(try await poller.poll() == all)
        #expect(try await poller.poll() == 0, "nothing is read twice")
        let sent = try await campaigns.progress(id)
        #expect(sent.received == 2 && sent.opened == 1)
        let never2 = try await campaigns.progress(cancelled)
        #expect(never2.received == 0 && never2.opened == 0 && never2.ignoredReceipts == 2)
        #expect(try #require(try await campaigns.find(cancelled)).totals.received == 0)
        // A new poller (a restart) goes on from the stored id: nothing counted twice.
        #expect(try await ReceiptPoller(database: database).poll() == 0)
        #expect(try await campaigns.progress(id).received == 2)
    }
}
