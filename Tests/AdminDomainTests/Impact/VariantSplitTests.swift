import AdminDomain
import Foundation
import GRDB
import Testing

/// Variants: drawn evenly among the recipients, recorded on every delivery, and each claimed
/// push carries its own variant's text.
@Suite(.timeLimit(.minutes(20))) struct VariantSplitTests {
    static let texts: [MessageVariant: (title: String, body: String)] = [
        .a: ("Title A", "Body A"), .b: ("Title B: milk", "Body B 🥛"), .c: ("Title C", "Body C <c>"),
        .d: ("Title D", "Body D \"d\""),
    ]

    static func experiment(variants: Int) -> CampaignExperiment {
        let extra: [MessageVariant] = Array([MessageVariant.b, .c, .d].prefix(variants - 1))
        return CampaignExperiment(
            holdoutPercent: 10, goal: .itemAdded,
            variants: extra.map { VariantMessage(variant: $0, title: texts[$0]!.title, body: texts[$0]!.body) })
    }

    @Test(arguments: [2, 4])
    func variantsSplitTheRecipientsEvenlyAndEachPushCarriesItsVariantsText(variants: Int) async throws {
        let fixture = try await ImpactFixture.make(reachable: 12_000)
        defer { fixture.remove() }
        let id = try await fixture.launch(Self.experiment(variants: variants))

        let arms = try await fixture.arms(id)
        let letters = Array([MessageVariant.a, .b, .c, .d].prefix(variants))
        #expect(Set(arms.keys) == Set(letters.map(\.rawValue) + ["holdout"]), "\(arms)")
        let recipients = arms.filter { $0.key != "holdout" }.values.reduce(0, +)
        for letter in letters {
            let share = Double(arms[letter.rawValue, default: 0]) / Double(recipients)
            #expect(abs(share - 1 / Double(variants)) <= 0.03, "variant \(letter.letter): \(share) of the recipients")
        }

        // Every delivery records its recipient's variant; the holdout has none.
        let (deliveries, withoutVariant, mismatched) = try await fixture.sql { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ? AND variant IS NULL",
                    arguments: [id]) ?? -1,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM panel_deliveries q LEFT JOIN panel_campaign_members m
                          ON m.campaign_id = q.campaign_id AND m.user_id = q.user_id
                        WHERE q.campaign_id = ? AND q.variant IS NOT m.arm
                        """, arguments: [id]) ?? -1
            )
        }
        #expect(deliveries > recipients && withoutVariant == 0 && mismatched == 0)

        // The report's variant rows are the members drawn to each.
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        try await tracker.refresh(now: ImpactFixture.launchTime.addingTimeInterval(3_600))
        let report = try #require(try await tracker.report(id))
        #expect(report.variants.map(\.variant) == letters)
        #expect(report.variants.map(\.group.users) == letters.map { arms[$0.rawValue, default: 0] })

        // Claimed pushes: each with its member's variant and that variant's title and body.
        let armOf = Dictionary(
            uniqueKeysWithValues: try await fixture.sql { db in
                try Row.fetchAll(
                    db, sql: "SELECT user_id, arm FROM panel_campaign_members WHERE campaign_id = ?", arguments: [id]
                )
                .map { (row: Row) -> (Int64, String) in (row[0], row[1]) }
            })
        let claimed = try await fixture.claimAll(now: ImpactFixture.launchTime.addingTimeInterval(60))
        #expect(claimed.count == deliveries)
        var wrong: [String] = []
        for push in claimed {
            let arm = armOf[push.userID] ?? "none"
            let expected = MessageVariant(rawValue: arm).flatMap { Self.texts[$0] }
            if push.variant.rawValue != arm || push.title != expected?.title || push.body != expected?.body {
                wrong.append(
                    "user \(push.userID) in \(arm): variant \(push.variant.rawValue), \(push.title) / \(push.body)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pushes with another variant's text, e.g. \(wrong.prefix(3))")
        #expect(Set(claimed.map(\.variant)) == Set(letters))
    }
}
