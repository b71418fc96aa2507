import AdminDomain
import Foundation
import GRDB
import Logging
import PushTemplates
import TestSupport
import Testing

@testable import CampaignDispatch

@Suite(.timeLimit(.minutes(20))) struct ThrottleAndTexts {
    @Test func theThrottleAllowsASecondsWorthAtMostAndRefillsWithTime() {
        var throttle = Throttle()
        let start = ContinuousClock.now
        let campaigns: [(id: Int64, perSecond: Int?)] = [(1, 40), (2, nil)]
        var allowance = throttle.allowance(for: campaigns, at: start)
        #expect(allowance == [1: 40, 2: Throttle.providersQuota], "a full second's worth to begin")
        throttle.spend([])
        allowance = throttle.allowance(for: campaigns, at: start + .milliseconds(500))
        #expect(allowance[1] == 40, "never more than a second's worth")
        // Spent, then a quarter of a second: a quarter of the rate.
        throttle = Throttle()
        _ = throttle.allowance(for: [(1, 40)], at: start)
        throttle.spendForTest(campaign: 1, count: 40)
        #expect(throttle.allowance(for: [(1, 40)], at: start + .milliseconds(250)) == [1: 10])
    }

    /// A campaign throttled to 40 a second sends about that, through the real clients to the fake.
    @Test func aThrottledCampaignSendsNoFasterThanItsRate() async throws {
        try await CampaignDispatchTests.Setup.with { setup in
            let campaigns = Campaigns(database: setup.database)
            let id = try await campaigns.create(CampaignDraft(title: "t", body: "b", perSecond: 40), by: .commandLine)
            _ = try await campaigns.beginAndFreeze(id, by: .commandLine)
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let dispatcher = CampaignDispatcher(
                outbox: DeliveryOutbox(database: setup.database), campaigns: campaigns, push: setup.push,
                idle: .milliseconds(20), logger: logger)
            let started = ContinuousClock.now
            let running = Task { try await dispatcher.run() }
            // Until 80 went out (two seconds' worth, later on a busy machine), not a fixed time:
            // the bound below is what the throttle promises, whatever the machine's speed.
            while try await campaigns.progress(id).accepted < 80, ContinuousClock.now - started < .seconds(30) {
                try await Task.sleep(for: .milliseconds(50))
            }
            // On a busy machine the last of the audience may have gone out before this look:
            // a finished campaign cannot be paused, and the rate below holds all the same.
            if try await campaigns.progress(id).status == CampaignStatus.sending.rawValue {
                try? await campaigns.pause(id, by: .commandLine)
            }
            try await Task.sleep(for: .milliseconds(500))
            running.cancel()
            _ = try? await running.value
            let elapsed = ContinuousClock.now - started
            let sent = try await campaigns.progress(id).accepted
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            // A second's worth at the start, then 40 a second.
            #expect(sent >= 80 && Double(sent) <= 40 * (seconds + 1) + 1, "\(sent) in \(seconds) s")
        }
    }

    /// Each claimed delivery is filled for its own recipient, in their language.
    @Test func eachClaimedDeliveryIsFilledForItsRecipient() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 80)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let library = try PushTemplateLibrary(folder: TestPaths.repositoryRoot.appendingPathComponent("Templates"))
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(
            CampaignDraft(title: "x", body: "x", template: "expiring-soon"), by: .commandLine)
        _ = try await campaigns.beginAndFreeze(
            id, schedule: .now, by: .commandLine, now: Date().addingTimeInterval(-86_400))
        let claimed = try await DeliveryOutbox(database: database).claim(
            limit: 500, now: Date().addingTimeInterval(86_400))
        #expect(!claimed.isEmpty)
        let rendered = await CampaignTexts(library: library, database: database).render(claimed)
        let values = try await RecipientValues.load(claimed.map(\.userID), in: database)
        for delivery in claimed {
            let recipient = try #require(values[delivery.userID])
            let expected = try #require(library.template("expiring-soon", locale: recipient.locale)).render(
                recipient.values)
            #expect(
                rendered[delivery.rowID]?.title == expected.title && rendered[delivery.rowID]?.body == expected.body)
        }
        #expect(Set(claimed.compactMap { rendered[$0.rowID]?.title }).count > 1, "not one text for all")
    }
}

/// A template in two languages without a tag still goes out in each recipient's language.
@Suite(.timeLimit(.minutes(20))) struct PlainTemplatesInTheirLanguage {
    @Test func aTemplateWithoutTagsIsSentInEachRecipientsLanguage() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 80)
        defer { temp.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "plain-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "title: Spring sale\nbody: Everything half price this week.\n".write(
            to: folder.appendingPathComponent("plain.en.mustache"), atomically: true, encoding: .utf8)
        try "title: Saldos da primavera\nbody: Tudo a metade do preço esta semana.\n".write(
            to: folder.appendingPathComponent("plain.pt.mustache"), atomically: true, encoding: .utf8)
        let library = try PushTemplateLibrary(folder: folder)
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "x", body: "x", template: "plain"), by: .commandLine)
        _ = try await campaigns.beginAndFreeze(
            id, schedule: .now, by: .commandLine, now: Date().addingTimeInterval(-86_400))
        let claimed = try await DeliveryOutbox(database: database).claim(
            limit: 500, now: Date().addingTimeInterval(86_400))
        let rendered = await CampaignTexts(library: library, database: database).render(claimed)
        let locales = try await database.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, CAST(locale AS TEXT) FROM users").map {
                    ($0[0] as Int64, ($0[1] as String?) ?? "")
                })
        }
        var portuguese = 0
        for delivery in claimed {
            let wanted = locales[delivery.userID]?.hasPrefix("pt") == true ? "Saldos da primavera" : "Spring sale"
            #expect(
                rendered[delivery.rowID]?.title == wanted,
                "user \(delivery.userID) (\(locales[delivery.userID] ?? "none"))")
            if wanted != "Spring sale" { portuguese += 1 }
        }
        #expect(portuguese > 0, "the seeded users include Portuguese speakers")
    }
}

extension Throttle {
    mutating func spendForTest(campaign: Int64, count: Int) {
        for _ in 0..<count { spend(campaign: campaign) }
    }
}
