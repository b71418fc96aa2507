import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Holdout, goal, variants and winner as marketing sets and reads them, through the router.
@Suite(.timeLimit(.minutes(20))) struct CampaignImpactPages {
    static let marketing = "measure@example.com"

    @Test func theComposerKeepsAHoldoutAGoalAndAVariantAndTheDraftShowsTheExpectedHoldout() async throws {
        let panel = try await TestPanel(areas: [.campaigns], users: 200)
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let created = try await client.postSigned(
                "/campaigns/new",
                [
                    ("title", "A"), ("body", "Message A"), ("title_b", "B <i>"), ("body_b", "Message B"),
                    ("ttl", "86400"), ("when", "now"),
                    ("holdout_percent", "10"), ("goal", "item_added"), ("goal_days", "2"),
                ], session: cookie)
            #expect(created.status == .seeOther)
            let path = String(try #require(created.headers[.location]).prefix { $0 != "?" })
            let id = try #require(Int64(path.split(separator: "/").last ?? ""))
            let draft = try await CampaignPages.waitForPreview(client, path, cookie: cookie)
            #expect(draft.contains("Variant B") && draft.contains("B &lt;i&gt;"), "variant B as typed, escaped")
            #expect(draft.contains("10% of the reachable users get nothing"))
            #expect(draft.contains("added an item or a document, within 2 days of the send time"))
            // The preview shows the holdout the launch's draw will take (issue 32: the confirmation
            // says held-out users apart): the draw on each reachable user, found by plain SQL.
            let users = try await Audience().count(CampaignSegment(), in: panel.areas.database).reachableUsers
            let reachable = try await panel.areas.database.read { db in
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT u.id FROM users u LEFT JOIN notification_settings s ON s.user_id = u.id
                        WHERE u.status = 'active'
                          AND (s.user_id IS NULL OR (COALESCE(CAST(s.push_enabled AS INTEGER), 0) <> 0
                                                     AND COALESCE(CAST(s.marketing_opt_in AS INTEGER), 0) <> 0))
                          AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.push_permission = 'granted'
                                      AND COALESCE(d.push_token, '') <> '' AND d.push_provider IN ('fcm', 'apns'))
                        """)
            }
            #expect(reachable.count == users)
            let held = reachable.filter {
                CampaignDraw.arm(campaign: id, user: $0, holdoutPercent: 10, variants: 2, testPercent: nil) == .holdout
            }.count
            #expect(draft.contains("Holdout: \(Format.count(held, "user", "users")) ("), "\(held) held out")
            #expect(draft.contains("of the \(Format.grouped(users)) reachable (10%) are drawn to get nothing"))
            let stored = try #require(try await panel.areas.campaigns.campaigns.find(id))
            #expect(
                stored.experiment.holdoutPercent == 10 && stored.experiment.goal == .itemAdded
                    && stored.experiment.goalDays == 2)
            #expect(stored.experiment.variants == [VariantMessage(variant: .b, title: "B <i>", body: "Message B")])
            // Editing shows every field as saved.
            let editor = try await client.get("/campaigns/\(id)/edit", cookie: cookie)
            #expect(editor.text.contains("name=\"holdout_percent\" id=\"holdout_percent\" value=\"10\""))
            #expect(editor.text.contains("value=\"B &lt;i&gt;\""))
        }
    }

    @Test func theComposerRefusesMeasuringFieldsItCannotUseWithASentence() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            func refused(_ fields: [(String, String)], _ sentence: String) async throws {
                let answer = try await client.postSigned(
                    "/campaigns/new", [("ttl", "86400"), ("when", "now"), ("title", "t"), ("body", "b")] + fields,
                    session: cookie)
                #expect(answer.status == .badRequest, "\(fields)")
                #expect(
                    answer.text.contains(sentence),
                    """
                    \(fields): \
                    \(answer.text.components(separatedBy: "notice error").dropFirst().first?.prefix(400) ?? "")
                    """
                )
            }
            try await refused([("holdout_percent", "60")], "The holdout must be a whole number from 0 to 50.")
            try await refused([("holdout_percent", "ten")], "The holdout must be a whole number from 0 to 50.")
            try await refused([("goal", "clicked")], "There is no goal “clicked”")
            try await refused(
                [("goal", "upgraded"), ("goal_days", "15")],
                "The goal's window (days) must be a whole number from 1 to 14.")
            try await refused([("title_b", "only a title")], "Variant B needs both a title and a message")
            try await refused(
                [("title_c", "C"), ("body_c", "c")], "Fill the variants in order: B first, then C, then D.")
            try await refused([("test_percent", "20")], "A test share needs at least two messages")
            try await refused([("winner_wait_hours", "5")], "A wait before the winner needs a test share")
            try await refused([("holdout_percent", "10")], "A holdout is compared with the recipients on a goal")
            try await refused(
                [("title_b", "B"), ("body_b", "b"), ("test_percent", "20"), ("winner_wait_hours", "100")],
                "The wait before the winner is chosen (hours) must be a whole number from 1 to 72.")
            try await refused([("title_b", "Hi {{nickname}}"), ("body_b", "b")], "Variant B: ")
            try await refused(
                [("template_b", "no-such-template")], "There is no template for variant B “no-such-template”")
            #expect(try await panel.areas.campaigns.campaigns.list().isEmpty, "nothing refused was saved")
        }
    }

    @Test func aWinnerChosenByHandIsAuditedWithItsFiguresAndTheReportDownloads() async throws {
        let panel = try await TestPanel(areas: [.campaigns], users: 200)
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        let campaigns = try panel.areas.campaigns.campaigns
        let id = try await campaigns.create(
            CampaignDraft(
                title: "A", body: "a",
                experiment: CampaignExperiment(
                    holdoutPercent: 10, goal: .anyActivity,
                    variants: [VariantMessage(variant: .b, title: "B", body: "b")],
                    testPercent: 20, winnerWaitHours: 24)), by: .commandLine)
        try await campaigns.beginAndFreeze(id, by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let page = try await client.get("/campaigns/\(id)", cookie: cookie)
            #expect(
                page.text.contains("Recipients against the holdout")
                    && page.text.contains("The rest (waiting for the winner)"))
            #expect(
                page.text.contains("Nothing has gone out yet"), "no push went out here: no difference can be the push's"
            )
            #expect(page.text.contains("Send this variant to the rest now"))
            let unconfirmed = try await client.postSigned(
                "/campaigns/\(id)/winner", [("variant", "b")], session: cookie)
            #expect(
                unconfirmed.status == .badRequest && unconfirmed.text.contains("Tick “Yes, send it to the rest now”"))
            let unknown = try await client.postSigned(
                "/campaigns/\(id)/winner", [("variant", "z"), ("confirm", "yes")], session: cookie)
            #expect(unknown.status == .badRequest && unknown.text.contains("There is no variant “z”"))
            let chosen = try await client.postSigned(
                "/campaigns/\(id)/winner", [("variant", "B"), ("confirm", "yes")], session: cookie)
            #expect(chosen.status == .seeOther)
            let again = try await client.postSigned(
                "/campaigns/\(id)/winner", [("variant", "a"), ("confirm", "yes")], session: cookie)
            #expect(again.status == .conflict && again.text.contains("has its winner already"))
            let after = try await client.get("/campaigns/\(id)", cookie: cookie)
            #expect(after.text.contains("Winner: variant B") && after.text.contains("chosen by hand"))

            let csv = try await client.get("/campaigns/\(id)/report.csv", cookie: cookie)
            #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.split(separator: "\r\n")
            #expect(
                lines.first?.hasSuffix(
                    "section,group,users,converted,conversion_rate,opened,open_rate,lift,lift_lower_95,lift_upper_95,"
                        + "goal,window_start_utc,window_end_utc,as_of_utc"
                ) == true)
            // The recipients' and holdout's users as the members table holds them.
            let (recipients, holdout) = try await panel.areas.database.read { db in
                (
                    try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? AND arm <> 'holdout'",
                        arguments: [id]) ?? -1,
                    try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? AND arm = 'holdout'",
                        arguments: [id]) ?? -1
                )
            }
            #expect(lines.contains { $0.hasPrefix("overall,recipients,\(recipients),") })
            #expect(lines.contains { $0.hasPrefix("overall,holdout,\(holdout),") })
            #expect(!csv.text.contains("'-"), "a negative lift is a number, not text")
            #expect(
                CSV.line(["x", "-0.25", "-1+2", "=1"], numeric: [1, 2, 3]) == "x,-0.25,'-1+2,'=1\r\n",
                "only plain numbers pass undefused")
        }
        let (winner, detail, exported) = try await panel.areas.database.read { db in
            (
                try String.fetchOne(db, sql: "SELECT winner FROM panel_campaigns WHERE id = ?", arguments: [id]),
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT detail FROM panel_audit_log WHERE action = 'campaign_winner_chosen' "
                        + "AND actor_email = ?",
                    arguments: [Self.marketing]),
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'campaign_report_exported' AND target = ?",
                    arguments: ["campaign:\(id)"])
            )
        }
        #expect(winner == "b")
        #expect(
            detail?.hasPrefix("variant B chosen by hand by \(Self.marketing): ") == true
                && detail?.contains("converted") == true, "\(detail ?? "")")
        #expect(exported == 1)
    }
}
