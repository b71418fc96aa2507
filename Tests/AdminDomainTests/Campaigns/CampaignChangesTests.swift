import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// The change feed behind the live pages and the pause's wait: every subscriber hears its
/// campaign, a slow one keeps only the newest change, a stopped one is forgotten, and each
/// publisher of the domain tells of its commit.
@Suite(.timeLimit(.minutes(20))) struct CampaignChangesTests {
    @Test func twoSubscribersHearTheirCampaignAndASlowOneKeepsOnlyTheNewest() async throws {
        let changes = CampaignChanges()
        let one = changes.subscribe(to: 7)
        let two = changes.subscribe(to: 7)
        let other = changes.subscribe(to: 8)
        #expect(changes.subscriberCount == 3)
        changes.publish([7, 9])
        var first = one.makeAsyncIterator()
        var second = two.makeAsyncIterator()
        let heard = try #require(await first.next())
        #expect(await second.next() == heard, "both subscribers hear the same change")
        // The first one reads nothing while a hundred changes come: it then holds the newest
        // of them, and nothing older (its buffer does not grow).
        for _ in 0..<100 { changes.publish(7) }
        #expect(await first.next() == heard + 100)
        changes.publish(8)
        #expect(await second.next() == heard + 100, "the other one too")
        // Campaign 8's subscriber heard nothing of 7 and 9: its first change is the one of 8.
        var third = other.makeAsyncIterator()
        #expect(await third.next() == heard + 101)
    }

    @Test func aSubscriberThatStopsIsForgotten() async throws {
        let changes = CampaignChanges()
        let feed = changes.subscribe(to: 1)
        let listening = Task {
            for await _ in feed {}
        }
        var dropped: AsyncStream<Int>? = changes.subscribe(to: 1)
        #expect(changes.subscriberCount == 2)
        listening.cancel()
        dropped = nil
        _ = dropped
        let deadline = ContinuousClock.now + .seconds(2)
        while changes.subscriberCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(changes.subscriberCount == 0, "a cancelled consumer and a dropped stream are removed")
        changes.publish(1)
    }

    /// Whether `action` published a change of campaign `id` (on a subscription made just before it).
    static func publishes(_ changes: CampaignChanges, _ id: Int64, _ action: () async throws -> Void) async throws
        -> Bool
    {
        let feed = changes.subscribe(to: id)
        try await action()
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in feed { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(300))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func theUseCasesAndTheReceiptPollerPublishWhatTheyChanged() async throws {
        let (temp, database, id, rows) = try await CampaignReceiptTests.sentCampaign()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let changes = campaigns.changes
        let other = try await campaigns.create(CampaignDraft(title: "t2", body: "b"), by: .commandLine)
        #expect(
            try await Self.publishes(changes, other) {
                try await campaigns.beginAndFreeze(
                    other, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
            })
        #expect(try await Self.publishes(changes, other) { try await campaigns.pause(other, by: .commandLine) })
        #expect(try await Self.publishes(changes, other) { try await campaigns.resume(other, by: .commandLine) })
        #expect(try await Self.publishes(changes, other) { _ = try await campaigns.cancel(other, by: .commandLine) })
        #expect(
            try await !Self.publishes(changes, other) { _ = try await campaigns.progress(other) },
            "a read publishes nothing")

        let poller = ReceiptPoller(database: database, changes: changes)
        try await CampaignReceiptTests.insertReceipts(
            [("c\(id)-\(rows[0])", "opened", "2026-11-21 00:00:00".databaseValue)], path: temp.path)
        #expect(try await Self.publishes(changes, id) { try await poller.poll() }, "a receipt's campaign is told")
        #expect(try await !Self.publishes(changes, other) { try await poller.poll() })
        // A receipt for one of the cancelled campaign's deliveries is counted there, as ignored.
        let cancelledRow = try #require(
            try await database.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT MIN(id) FROM panel_deliveries WHERE campaign_id = ?", arguments: [other])
            })
        try await CampaignReceiptTests.insertReceipts(
            [("c\(other)-\(cancelledRow)", "opened", "2026-11-21 00:00:00".databaseValue)], path: temp.path)
        #expect(
            try await !Self.publishes(changes, id) { try await poller.poll() },
            "another campaign's receipt is not this one's")
        try await CampaignReceiptTests.insertReceipts(
            [("c\(other)-\(cancelledRow)", "received", "2026-11-21 00:00:01".databaseValue)], path: temp.path)
        #expect(
            try await Self.publishes(changes, other) { try await poller.poll() },
            "an ignored receipt changes the campaign's counts too")
    }

    /// Published by the write that made the change, when it commits: a write that rolls back
    /// publishes nothing.
    @Test func aWritePublishesAtItsCommitAndNothingWhenItRollsBack() async throws {
        let (temp, database, id, _) = try await CampaignReceiptTests.sentCampaign()
        defer { temp.remove() }
        let changes = CampaignChanges()
        struct Refused: Error {}
        #expect(
            try await !Self.publishes(changes, id) {
                await #expect(throws: Refused.self) {
                    try await database.write { db in
                        try db.execute(
                            sql: "UPDATE panel_campaigns SET title = title || '!' WHERE id = ?", arguments: [id])
                        changes.publishOnCommit(id, in: db)
                        throw Refused()
                    }
                }
            }, "a rolled-back write publishes nothing")
        let feed = changes.subscribe(to: id)
        var heard = feed.makeAsyncIterator()
        try await database.write { db in
            changes.publishOnCommit(id, in: db)
            try db.execute(sql: "UPDATE panel_campaigns SET title = title || '!' WHERE id = ?", arguments: [id])
        }
        #expect(await heard.next() != nil, "the committed write published its campaign")
        let title = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT title FROM panel_campaigns WHERE id = ?", arguments: [id])
        }
        #expect(title?.hasSuffix("!") == true && title?.hasSuffix("!!") == false, "the rolled-back change is not there")
    }

    /// The pause's wait for sends in flight: woken by the feed, it answers as soon as the
    /// last outcome is published, and without one at its time limit, as the counts are.
    @Test func theWaitForSendsInFlightEndsAtThePublishedOutcome() async throws {
        let (temp, database, _, _) = try await CampaignReceiptTests.sentCampaign()
        defer { temp.remove() }
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "t2", body: "b"), by: .commandLine)
        try await campaigns.beginAndFreeze(id, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        func setInFlight(_ state: String) async throws {
            try await database.write { db in
                try db.execute(
                    sql:
                        "UPDATE panel_deliveries SET state = ? WHERE id = (SELECT MIN(id) "
                        + "FROM panel_deliveries WHERE campaign_id = ?)",
                    arguments: [state, id])
            }
        }
        try await setInFlight("sending")
        let started = ContinuousClock.now
        async let waited = campaigns.progressWithoutSendsInFlight(id, within: .seconds(90))
        try await Task.sleep(for: .milliseconds(300))
        try await setInFlight("accepted")
        campaigns.changes.publish(id)
        let settled = try await waited
        #expect(settled.sending == 0 && settled.accepted == 1)
        // Far under the limit even on a loaded machine (8 s was seen under the whole suite).
        #expect(ContinuousClock.now - started < .seconds(45), "woken by the outcome, not at the 90 s limit")

        try await setInFlight("sending")
        let unpublished = try await campaigns.progressWithoutSendsInFlight(id, within: .milliseconds(400))
        #expect(unpublished.sending == 1, "nothing published: the counts as they are at the limit")
    }
}
