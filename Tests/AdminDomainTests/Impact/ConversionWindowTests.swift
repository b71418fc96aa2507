import AdminDomain
import Foundation
import GRDB
import Testing

/// Who converted: for each goal, the report's counts for the holdout, the recipients, every
/// variant and every platform equal plain SQL written from the goal's definition, with rows a
/// second either side of the window's ends, hostile rows, and rows written after the first
/// refresh (read by id, whatever their stamp).
@Suite(.timeLimit(.minutes(20))) struct ConversionWindowTests {
    static let days = 2
    static var start: Date { ImpactFixture.launchTime }

    /// The report's converted counts in the shape of `GoalRows.expected`.
    static func converted(_ report: CampaignImpact) -> [String: Int] {
        var counts = ["holdout": report.holdout.converted, "recipients": report.recipients.converted]
        for row in report.variants { counts[row.variant.rawValue] = row.group.converted }
        if let rest = report.rest { counts["rest"] = rest.converted }
        for row in report.platforms {
            counts["recipients/\(row.platform)"] = row.recipients.converted
            counts["holdout/\(row.platform)"] = row.holdout.converted
        }
        return counts
    }

    /// The rest, waiting for the winner here (a 72-hour wait), were sent nothing: not recipients.
    static func flatten(_ expected: [String: [String: Int]]) -> [String: Int] {
        var counts: [String: Int] = ["holdout": 0, "recipients": 0]
        for (arm, platforms) in expected {
            let group = arm == "holdout" ? "holdout" : "recipients"
            for (platform, count) in platforms {
                if arm != "rest" {
                    counts[group, default: 0] += count
                    counts["\(group)/\(platform)", default: 0] += count
                }
                if arm != "holdout" { counts[arm, default: 0] += count }
            }
        }
        return counts
    }

    /// The report's keys that SQL found nobody for are zero.
    static func matches(_ report: [String: Int], _ expected: [String: Int]) -> Bool {
        report.keys.allSatisfy { report[$0] == expected[$0, default: 0] }
            && expected.keys.allSatisfy { report[$0] == expected[$0] }
    }

    @Test(arguments: [CampaignGoal.anyActivity, .itemAdded, .upgraded])
    func convertedCountsEqualTheDefinitionAtTheWindowsEdgesAndForLateRows(goal: CampaignGoal) async throws {
        let fixture = try await ImpactFixture.make(reachable: 1_500, unreachable: 300)
        defer { fixture.remove() }
        let id = try await fixture.launch(
            CampaignExperiment(
                holdoutPercent: 20, goal: goal, goalDays: Self.days,
                variants: [VariantMessage(variant: .b, title: "Title B", body: "Body B")],
                testPercent: 50, winnerWaitHours: 72))
        let members = try await fixture.sql { db in
            try Int64.fetchAll(
                db, sql: "SELECT user_id FROM panel_campaign_members WHERE campaign_id = ? ORDER BY user_id",
                arguments: [id])
        }
        let outsiders = try await fixture.sql { db in
            try Int64.fetchAll(
                db,
                sql:
                    "SELECT id FROM users WHERE id NOT IN (SELECT user_id "
                    + "FROM panel_campaign_members WHERE campaign_id = ?)",
                arguments: [id])
        }
        let rows = GoalRows.all(start: Self.start, days: Self.days)
        let early = members.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let late = members.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        try await fixture.backendWrite { db in
            try GoalRows.insert(rows, for: early, offset: 0, in: db)
            try GoalRows.insert(rows, for: outsiders, offset: 0, in: db)
        }
        let now = Self.start.addingTimeInterval(3_600)
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: now)
        let first = try #require(try await tracker.report(id))
        let expectedFirst = Self.flatten(
            try await fixture.sql { db in
                try GoalRows.expected(campaign: id, goal: goal, start: Self.start, days: Self.days, in: db)
            })
        #expect(
            Self.matches(Self.converted(first), expectedFirst), "report \(Self.converted(first)), SQL \(expectedFirst)")
        #expect(["holdout", "a", "b", "rest"].allSatisfy { expectedFirst[$0, default: 0] > 0 }, "\(expectedFirst)")
        #expect(expectedFirst["recipients", default: 0] < members.count / 2, "some rows are outside or unreadable")

        // Written after the first refresh: rows for the other half (inside, outside, hostile),
        // and a second row for some who had converted already.
        try await fixture.backendWrite { db in
            try GoalRows.insert(rows, for: late, offset: 11, in: db)
            try GoalRows.insert(rows, for: Array(early.prefix(200)), offset: 29, in: db)
        }
        try await tracker.refresh(now: now)
        let second = try #require(try await tracker.report(id))
        let expectedSecond = Self.flatten(
            try await fixture.sql { db in
                try GoalRows.expected(campaign: id, goal: goal, start: Self.start, days: Self.days, in: db)
            })
        #expect(
            Self.matches(Self.converted(second), expectedSecond),
            "report \(Self.converted(second)), SQL \(expectedSecond)")
        #expect(expectedSecond["recipients", default: 0] > expectedFirst["recipients", default: 0])
        // Each converter counted on one day of the window.
        #expect(second.days.count == Self.days)
        #expect(second.days.map(\.recipients).reduce(0, +) == second.recipients.converted)
        #expect(second.days.map(\.holdout).reduce(0, +) == second.holdout.converted)

        // A tracker started afresh (a restart) reads everything from the time index: the same counts.
        let restarted = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await restarted.refresh(now: now)
        let again = try #require(try await restarted.report(id))
        #expect(
            Self.matches(Self.converted(again), expectedSecond),
            "after a restart \(Self.converted(again)), SQL \(expectedSecond)")
        #expect(
            again.lift
                == LiftInterval(
                    converted: expectedSecond["recipients", default: 0], of: again.recipients.users,
                    against: expectedSecond["holdout", default: 0], of: again.holdout.users))
    }

    @Test func aCampaignWithoutAGoalCountsNoConversions() async throws {
        let fixture = try await ImpactFixture.make(reachable: 300)
        defer { fixture.remove() }
        let id = try await fixture.launch(CampaignExperiment(holdoutPercent: 20))
        let members = try await fixture.sql { db in
            try Int64.fetchAll(
                db, sql: "SELECT user_id FROM panel_campaign_members WHERE campaign_id = ?", arguments: [id])
        }
        try await fixture.backendWrite { db in
            try GoalRows.insert(GoalRows.all(start: Self.start, days: 3), for: members, offset: 0, in: db)
        }
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: Self.start.addingTimeInterval(3_600))
        let report = try #require(try await tracker.report(id))
        #expect(report.recipients.converted == 0 && report.holdout.converted == 0 && report.lift == nil)
        #expect(report.holdout.users + report.recipients.users == members.count)
    }
}
