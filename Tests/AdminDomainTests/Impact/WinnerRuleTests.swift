import Foundation
import Testing

@testable import AdminDomain

/// The winner test's rule on given figures: the best conversion rate with a goal, the best
/// open rate without one, a tie to the earlier letter.
@Suite(.timeLimit(.minutes(20))) struct WinnerRuleTests {
    typealias Group = CampaignImpact.Group

    static func report(goal: CampaignGoal?, _ groups: [(MessageVariant, Group)]) -> CampaignImpact {
        var report = CampaignImpact(
            campaignID: 1, asOf: Date(timeIntervalSince1970: 0), goal: goal,
            windowStart: Date(timeIntervalSince1970: 0), windowEnd: Date(timeIntervalSince1970: 86_400))
        report.variants = groups.map { CampaignImpact.VariantRow(variant: $0.0, group: $0.1, lift: nil) }
        return report
    }

    @Test func theBestConversionRateWinsAndATieGoesToTheEarlierLetter() {
        let figures: [(MessageVariant, Group)] = [
            (.a, Group(users: 100, converted: 40, opened: 90)), (.b, Group(users: 200, converted: 100, opened: 10)),
            (.c, Group(users: 50, converted: 25, opened: 5)), (.d, Group(users: 10, converted: 4, opened: 10)),
        ]
        #expect(Self.report(goal: .itemAdded, figures).ruleWinner?.variant == .b, "B and C at 50%: B")
        #expect(Self.report(goal: .itemAdded, figures.reversed()).ruleWinner?.variant == .b, "whatever the order")
        #expect(Self.report(goal: .itemAdded, [figures[3], figures[2]]).ruleWinner?.variant == .c)
    }

    @Test func withoutAGoalTheBestOpenRateWins() {
        let figures: [(MessageVariant, Group)] = [
            (.a, Group(users: 100, converted: 0, opened: 30)), (.b, Group(users: 100, converted: 0, opened: 31)),
            (.c, Group(users: 100, converted: 0, opened: 31)),
        ]
        #expect(Self.report(goal: nil, figures).ruleWinner?.variant == .b)
        #expect(
            Self.report(goal: .upgraded, figures).ruleWinner?.variant == .a, "with a goal and no converter: a tie, to A"
        )
    }

    @Test func aVariantNobodyWasDrawnToNeverWins() {
        let figures: [(MessageVariant, Group)] = [
            (.a, Group(users: 10, converted: 0, opened: 0)), (.b, Group(users: 0, converted: 0, opened: 0)),
        ]
        #expect(Self.report(goal: .anyActivity, figures.reversed()).ruleWinner?.variant == .a)
        #expect(Self.report(goal: .anyActivity, []).ruleWinner == nil)
    }
}
