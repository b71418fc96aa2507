import AdminDomain
import Foundation
import GRDB
import Testing

/// The winner test: the variants go to a test share first, the rest wait; the winner is
/// chosen by the rule once the wait has passed, or by hand before it, and then the rest get it.
@Suite(.timeLimit(.minutes(20))) struct WinnerChoiceTests {
    static let start = ImpactFixture.launchTime
    static let wait = 4
    static let experiment = CampaignExperiment(
        holdoutPercent: 10, goal: .itemAdded, goalDays: 3,
        variants: [VariantMessage(variant: .b, title: "Title B", body: "Body B")],
        testPercent: 20, winnerWaitHours: wait)

    struct Counts: Sendable, Equatable {
        var held = 0, heldWithVariant = 0, restDeliveries = 0, testDeliveries = 0, waiting = 0
    }

    /// The rows still waiting for the winner, and the rest's and the test share's deliveries, by SQL.
    static func counts(_ id: Int64, _ fixture: ImpactFixture) async throws -> Counts {
        try await fixture.sql { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql, arguments: [id]) ?? -1 }
            let ofArm = "SELECT user_id FROM panel_campaign_members WHERE campaign_id = q.campaign_id AND arm"
            let held =
                "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state IN ('queued', 'retry') "
                + "AND due_at = '9999-12-31 23:59:59'"
            return Counts(
                held: try count(held),
                heldWithVariant: try count(held + " AND variant IS NOT NULL"),
                restDeliveries: try count(
                    "SELECT COUNT(*) FROM panel_deliveries q WHERE campaign_id = ? AND user_id IN (\(ofArm) = 'rest')"),
                testDeliveries: try count(
                    "SELECT COUNT(*) "
                        + "FROM panel_deliveries q WHERE campaign_id = ? AND user_id IN (\(ofArm) IN ('a', 'b'))"
                ),
                waiting: try count(
                    "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND state IN ('queued', 'retry')"))
        }
    }

    static func audit(_ id: Int64, _ fixture: ImpactFixture) async throws -> [String] {
        try await fixture.sql { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT COALESCE(detail, '') "
                    + "FROM panel_audit_log WHERE action = 'campaign_winner_chosen' AND target = ? ORDER BY id",
                arguments: ["campaign:\(id)"])
        }
    }

    static func users(_ id: Int64, arm: String, _ fixture: ImpactFixture) async throws -> [Int64] {
        try await fixture.sql { db in
            try Int64.fetchAll(
                db,
                sql: "SELECT user_id FROM panel_campaign_members WHERE campaign_id = ? AND arm = ? ORDER BY user_id",
                arguments: [id, arm])
        }
    }

    @Test func theRuleChoosesTheBestVariantOnceTheWaitHasPassedAndTheRestGetIt() async throws {
        let fixture = try await ImpactFixture.make(reachable: 3_000)
        defer { fixture.remove() }
        let id = try await fixture.launch(Self.experiment)
        let before = try await Self.counts(id, fixture)
        #expect(before.held == before.restDeliveries && before.held > 0 && before.heldWithVariant == 0)

        // The test share goes out; the rest waits, and keeps the campaign sending.
        let sent = try await fixture.claimAll(now: Self.start.addingTimeInterval(60))
        #expect(sent.count == before.testDeliveries)
        let rest = Set(try await Self.users(id, arm: "rest", fixture))
        #expect(sent.allSatisfy { !rest.contains($0.userID) })
        let arms = try await fixture.arms(id)
        let testShare =
            Double(arms["a", default: 0] + arms["b", default: 0])
            / Double(arms["a", default: 0] + arms["b", default: 0] + rest.count)
        #expect(abs(testShare - 0.20) <= 0.03, "test share \(testShare) of the recipients for 20%")
        #expect(try await fixture.campaigns.find(id)?.status.known == .sending)

        // Every B member adds an item within the hour; every fourth A member does.
        let (a, b) = (try await Self.users(id, arm: "a", fixture), try await Self.users(id, arm: "b", fixture))
        let converters = b + a.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        try await fixture.backendWrite { db in
            for user in converters {
                try db.execute(
                    sql:
                        "INSERT INTO activity_events (user_id, kind, created_at) "
                        + "VALUES (?, 'item_added', '2026-11-18 13:00:00')",
                    arguments: [user])
            }
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(TimeInterval(Self.wait * 3_600 - 60)))
        #expect(try await fixture.campaigns.find(id)?.winner == nil, "not before the wait")
        #expect(try await Self.counts(id, fixture).held == before.held)

        let chosenAt = Self.start.addingTimeInterval(TimeInterval(Self.wait * 3_600 + 60))
        try await tracker.refresh(now: chosenAt)
        let winner = try #require(try await fixture.campaigns.find(id)?.winner)
        #expect(winner.variant == .known(.b) && winner.at?.text == SQLiteTime.string(chosenAt))
        let audit = try await Self.audit(id, fixture)
        #expect(audit.count == 1)
        #expect(audit.first?.hasPrefix("variant B by the rule") == true, "\(audit)")
        #expect(audit.first?.contains("converted (\(b.count) of \(b.count))") == true, "\(audit)")
        #expect(winner.detail == audit.first)

        // Released: no longer held, B's text, due now; and claimable.
        let after = try await Self.counts(id, fixture)
        #expect(after.held == 0)
        let (restVariants, lateDue) = try await fixture.sql { db in
            (
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT COALESCE(variant, 'none') FROM panel_deliveries q
                        WHERE campaign_id = ? AND user_id IN (SELECT user_id FROM panel_campaign_members
                          WHERE campaign_id = ? AND arm = 'rest')
                        """, arguments: [id, id]),
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) "
                        + "FROM panel_deliveries WHERE campaign_id = ? AND state = 'queued' AND due_at > ?",
                    arguments: [id, SQLiteTime.string(chosenAt)]) ?? -1
            )
        }
        #expect(restVariants == ["b"] && lateDue == 0)
        let released = try await fixture.claimAll(now: chosenAt.addingTimeInterval(1))
        #expect(released.count == before.restDeliveries)
        #expect(
            released.allSatisfy {
                rest.contains($0.userID) && $0.variant == .b && $0.title == "Title B" && $0.body == "Body B"
            })
        #expect(try await fixture.campaigns.find(id)?.status.known == .finished)
    }

    /// A wait longer than the goal's window and the tracker's grace after it: the report is
    /// kept before the wait ends, and the rule still reads its figures.
    @Test func theRuleReadsTheKeptReportWhenTheWaitOutlastsTheGoalWindow() async throws {
        let fixture = try await ImpactFixture.make(reachable: 1_500)
        defer { fixture.remove() }
        var experiment = Self.experiment
        experiment.goalDays = 1
        experiment.winnerWaitHours = 72
        let id = try await fixture.launch(experiment)
        let b = try await Self.users(id, arm: "b", fixture)
        try await fixture.backendWrite { db in
            for user in b {
                try db.execute(
                    sql:
                        "INSERT INTO activity_events (user_id, kind, created_at) "
                        + "VALUES (?, 'item_added', '2026-11-18 13:00:00')",
                    arguments: [user])
            }
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(3_600))
        try await tracker.refresh(now: Self.start.addingTimeInterval(72 * 3_600 + 60))
        let kept = try #require(try await tracker.report(id))
        #expect(kept.windowClosed && kept.variants.first { $0.variant == .b }?.group.converted == b.count)
        #expect(try await fixture.campaigns.find(id)?.winner?.variant == .known(.b))
        #expect(try await Self.audit(id, fixture).first?.contains("converted (\(b.count) of \(b.count))") == true)
    }

    @Test func aWinnerChosenByHandBeforeTheWaitIsFinalAndReleasesTheRest() async throws {
        let fixture = try await ImpactFixture.make(reachable: 1_500)
        defer { fixture.remove() }
        let id = try await fixture.launch(Self.experiment)
        let before = try await Self.counts(id, fixture)
        let early = Self.start.addingTimeInterval(60)
        await #expect(throws: CampaignError.self, "no variant D") {
            try await fixture.campaigns.chooseWinner(
                id, variant: .d, figures: "", by: .commandLine, byRule: false, now: early)
        }
        try await fixture.campaigns.chooseWinner(
            id, variant: .b, figures: "looked better", by: .commandLine, byRule: false, now: early)
        #expect(try await fixture.campaigns.find(id)?.winner?.variant == .known(.b))
        #expect(try await Self.audit(id, fixture) == ["variant B chosen by hand: looked better"])
        #expect(try await Self.counts(id, fixture).held == 0)

        // While it is still sending, a second choice is refused, by hand or by the rule after the wait.
        await #expect(throws: CampaignError.self) {
            try await fixture.campaigns.chooseWinner(
                id, variant: .a, figures: "changed my mind", by: .commandLine, byRule: false, now: early)
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(TimeInterval(Self.wait * 3_600 + 3_600)))
        #expect(try await fixture.campaigns.find(id)?.status.known == .sending)
        #expect(try await fixture.campaigns.find(id)?.winner?.variant == .known(.b))
        #expect(try await Self.audit(id, fixture).count == 1)

        // Everyone drawn to be sent to gets a push: the test share its variant, the rest B.
        let rest = Set(try await Self.users(id, arm: "rest", fixture))
        let claimed = try await fixture.claimAll(now: early.addingTimeInterval(1))
        #expect(claimed.count == before.testDeliveries + before.restDeliveries)
        #expect(claimed.filter { rest.contains($0.userID) }.allSatisfy { $0.variant == .b && $0.title == "Title B" })
    }

    @Test func aCampaignWithoutATestShareHasNoWinnerToChoose() async throws {
        let fixture = try await ImpactFixture.make(reachable: 600)
        defer { fixture.remove() }
        var experiment = Self.experiment
        experiment.testPercent = nil
        let id = try await fixture.launch(experiment)
        #expect(try await Self.counts(id, fixture).held == 0)
        await #expect(throws: CampaignError.self) {
            try await fixture.campaigns.chooseWinner(
                id, variant: .b, figures: "", by: .commandLine, byRule: false, now: Self.start.addingTimeInterval(60))
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(TimeInterval(Self.wait * 3_600 + 60)))
        #expect(try await fixture.campaigns.find(id)?.winner == nil)
        #expect(try await Self.audit(id, fixture).isEmpty)
    }

    @Test func aCancelledWinnerTestLeavesNothingWaitingAndNoWinnerCanBeChosen() async throws {
        let fixture = try await ImpactFixture.make(reachable: 1_500)
        defer { fixture.remove() }
        let id = try await fixture.launch(Self.experiment)
        let before = try await Self.counts(id, fixture)
        #expect(before.held > 0)
        _ = try await fixture.campaigns.cancel(id, by: .commandLine, now: Self.start.addingTimeInterval(120))
        let after = try await Self.counts(id, fixture)
        #expect(after.waiting == 0 && after.held == 0, "\(after)")
        let restStates = try await fixture.sql { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT state FROM panel_deliveries WHERE campaign_id = ?
                    AND user_id IN (SELECT user_id FROM panel_campaign_members WHERE campaign_id = ? AND arm = 'rest')
                    """, arguments: [id, id])
        }
        #expect(restStates == ["cancelled"])
        await #expect(throws: CampaignError.self) {
            try await fixture.campaigns.chooseWinner(
                id, variant: .b, figures: "", by: .commandLine, byRule: false, now: Self.start.addingTimeInterval(180))
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(TimeInterval(Self.wait * 3_600 + 60)))
        #expect(try await fixture.campaigns.find(id)?.winner == nil)
        #expect(try await Self.audit(id, fixture).isEmpty)
        #expect(try await fixture.claimAll(now: Self.start.addingTimeInterval(86_400)).isEmpty)
    }
}
