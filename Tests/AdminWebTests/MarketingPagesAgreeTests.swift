import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 32, finding 7: marketing's pages tell one story. A confirmation counted before
/// another launch is counted again and its launch refused; a campaign due later is
/// `scheduled`; the list shows what was confirmed beside what was frozen; the confirmation
/// and its button say devices to send to and held-out users apart.
@Suite(.timeLimit(.minutes(20))) struct MarketingPagesAgree {
    /// The count a confirmation's launch form confirms.
    static func stamp(_ html: String) -> String? {
        groups(html, #"name="counted_at" value="(\d+)""#).first?.first
    }

    /// The devices to send to, as the confirmation shows them.
    static func count(_ html: String) -> Int? {
        groups(html, #"id="confirm-count">([\d,]+)<"#).first?.first.flatMap(number)
    }

    static func number(_ text: String) -> Int? { Int(text.replacingOccurrences(of: ",", with: "")) }

    /// Each match's capture groups.
    static func groups(_ text: some StringProtocol, _ pattern: String) -> [[String]] {
        guard let regex = try? Regex(pattern) else { return [] }
        return String(text).matches(of: regex).map { match in
            (1..<match.output.count).map { match.output[$0].substring.map(String.init) ?? "" }
        }
    }

    /// The numeric cells of the list's row for campaign `id`.
    static func listRow(_ html: String, _ id: Int64) -> [String] {
        guard let start = html.range(of: "href=\"/campaigns/\(id)\"") else { return [] }
        let rest = html[start.upperBound...]
        let row = rest.range(of: "</tr>").map { rest[..<$0.lowerBound] } ?? rest
        return groups(row, #"<td class="num" data-label="[^"]*"><div class="cell">(?:<bdi>)?([^<]*)"#).compactMap(
            \.first)
    }

    @Test func aConfirmationCountedBeforeAnotherLaunchIsCountedAgainAndItsLaunchIsRefused() async throws {
        let panel = try await TestPanel(areas: [.campaigns], users: 200)
        defer { panel.remove() }
        let campaigns = try panel.areas.campaigns.campaigns
        let looked = try await campaigns.create(CampaignDraft(title: "Looked at again", body: "b"), by: .commandLine)
        let sent = try await campaigns.create(CampaignDraft(title: "Sent", body: "b"), by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            var old: [Int64: (stamp: String, count: Int)] = [:]
            for id in [looked, sent] {
                _ = try await CampaignPages.waitForPreview(client, "/campaigns/\(id)", cookie: cookie)
                let page = try await client.get("/campaigns/\(id)/confirm", cookie: cookie)
                old[id] = (try #require(Self.stamp(page.text)), try #require(Self.count(page.text)))
            }
            // Two other campaigns to the premium users, launched after those counts and due in an
            // hour: every premium user now has two campaign pushes waiting, the frequency cap.
            for title in ["First", "Second"] {
                let other = try await campaigns.create(
                    CampaignDraft(title: title, body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
                try await campaigns.beginAndFreeze(
                    other, schedule: .at(Date().addingTimeInterval(3_600)), by: .commandLine)
            }
            // Stored launch times have whole seconds: a count begun in the same second would be made again.
            try await Task.sleep(for: .milliseconds(1_100))
            let now = try await Audience().count(CampaignSegment(), in: panel.areas.database).reachableDevices
            #expect(now < old[looked]!.count, "the premium users' devices are over the cap now")

            // The confirmation, opened again, shows the new count, not the one in memory. The
            // count runs in the background: until it is done the page says it is counting again.
            var again = try await client.get("/campaigns/\(looked)/confirm", cookie: cookie)
            for _ in 0..<600 where Self.count(again.text) == nil {
                #expect(again.text.contains("Counting the audience again"), "until then it says so")
                try await Task.sleep(for: .milliseconds(50))
                again = try await client.get("/campaigns/\(looked)/confirm", cookie: cookie)
            }
            #expect(again.status == .ok)
            #expect(
                Self.count(again.text) == now, "shown \(String(describing: Self.count(again.text))), counted \(now)")
            #expect(again.text.contains("Counted again just now: a campaign was launched at"))

            // The launch from the page shown before those launches is refused, with the new count.
            let refused = try await client.postSigned(
                "/campaigns/\(sent)/confirm", [("counted_at", old[sent]!.stamp)], session: cookie)
            #expect(refused.status == .conflict)
            #expect(
                refused.text.contains("Not launched: a campaign was launched at")
                    && refused.text.contains("Nothing was sent."))
            #expect(Self.count(refused.text) == now)
            let fresh = try #require(Self.stamp(refused.text))
            #expect(fresh != old[sent]!.stamp)
            #expect(try await campaigns.find(sent)?.status.known == .draft)
            // A form without the count it confirms, or with another one, is refused too.
            let unsaid = try await client.postSigned("/campaigns/\(sent)/confirm", session: cookie)
            #expect(unsaid.status == .conflict && unsaid.text.contains("the form did not say which count it confirms"))
            let other = try await client.postSigned(
                "/campaigns/\(sent)/confirm", [("counted_at", "1")], session: cookie)
            #expect(other.status == .conflict && other.text.contains("counted again since the page you confirmed"))

            // The new count launches, and the campaign keeps what was confirmed.
            let launched = try await client.postSigned(
                "/campaigns/\(sent)/confirm", [("counted_at", fresh)], session: cookie)
            #expect(launched.status == .seeOther)
            #expect(
                try await campaigns.find(sent)?.confirmed == CampaignRecord.Confirmed(devices: now, heldOutUsers: 0))
        }
    }

    @Test func aCampaignDueLaterIsScheduledAndTheListFiltersIt() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let campaigns = try panel.areas.campaigns.campaigns
        let tomorrow = try await campaigns.create(
            CampaignDraft(title: "Tomorrow", body: "b", segment: CampaignSegment(plan: .premium)), by: .commandLine)
        try await campaigns.beginAndFreeze(tomorrow, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        let draft = try await campaigns.create(CampaignDraft(title: "Draft", body: "b"), by: .commandLine)
        #expect(
            try await campaigns.find(tomorrow)?.status.known == .sending,
            "stored as sending: the dispatcher knows nothing else")
        #expect(try await campaigns.find(tomorrow)?.shownStatus() == .scheduled)
        #expect(
            try await campaigns.find(tomorrow)?.shownStatus(now: Date().addingTimeInterval(2 * 86_400)) == .sending,
            "once due, it is sending")
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let all = try await client.get("/campaigns", cookie: cookie)
            #expect(all.text.contains("class=\"badge tone-info\">scheduled<"))
            let scheduled = try await client.get("/campaigns?status=scheduled", cookie: cookie)
            #expect(scheduled.status == .ok)
            #expect(
                scheduled.text.contains("href=\"/campaigns/\(tomorrow)\"")
                    && !scheduled.text.contains("href=\"/campaigns/\(draft)\""))
            let sending = try await client.get("/campaigns?status=sending", cookie: cookie)
            #expect(sending.status == .ok && !sending.text.contains("href=\"/campaigns/\(tomorrow)\""))
            let page = try await client.get("/campaigns/\(tomorrow)", cookie: cookie)
            #expect(page.text.contains(">scheduled</span>"))
            let unknown = try await client.get("/campaigns?status=later", cookie: cookie)
            #expect(unknown.status == .badRequest)
        }
    }

    @Test func theConfirmationSaysDevicesToSendToAndHeldOutUsersApartAndTheListShowsWhatWasConfirmed() async throws {
        let panel = try await TestPanel(areas: [.campaigns], users: 300)
        defer { panel.remove() }
        let campaigns = try panel.areas.campaigns.campaigns
        let id = try await campaigns.create(
            CampaignDraft(
                title: "Held", body: "b", experiment: CampaignExperiment(holdoutPercent: 30, goal: .anyActivity)),
            by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            _ = try await CampaignPages.waitForPreview(client, "/campaigns/\(id)", cookie: cookie)
            let page = try await client.get("/campaigns/\(id)/confirm", cookie: cookie)
            let button = try #require(
                Self.groups(page.text, #"Send to ([\d,]+) devices; hold out ([\d,]+) users?<"#).first)
            let devices = try #require(Self.number(button[0]))
            let heldOut = try #require(Self.number(button[1]))
            #expect(Self.count(page.text) == devices)
            #expect(page.text.contains("Send campaign #\(id) to \(Format.grouped(devices)) devices?"))
            #expect(heldOut > 0)
            let launched = try await client.postSigned(
                "/campaigns/\(id)/confirm", [("counted_at", try #require(Self.stamp(page.text)))], session: cookie)
            #expect(launched.status == .seeOther)
            // What the freeze did, by SQL: the held-out users and the deliveries to send.
            var waited = 0
            while try await campaigns.find(id)?.status.known == .materialising, waited < 600 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            let (members, deliveries) = try await panel.areas.database.read { db in
                (
                    try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM panel_campaign_members WHERE campaign_id = ? AND arm = 'holdout'",
                        arguments: [id]) ?? -1,
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM panel_deliveries WHERE campaign_id = ?", arguments: [id]) ?? -1
                )
            }
            #expect(members == heldOut, "the confirmation's held-out users are the freeze's holdout")
            #expect(
                deliveries == devices, "the devices to send to are the deliveries frozen, the holdout's not among them")
            #expect(
                try await campaigns.find(id)?.confirmed
                    == CampaignRecord.Confirmed(devices: devices, heldOutUsers: heldOut))

            // The list: what was confirmed and what was frozen, apart, even when they differ.
            try await panel.areas.database.write { db in
                try db.execute(
                    sql: "UPDATE panel_campaigns SET confirmed_devices = 79, audience_count = 315 WHERE id = ?",
                    arguments: [id])
            }
            let list = try await client.get("/campaigns", cookie: cookie)
            #expect(list.text.contains("Confirmed (devices to send to)") && list.text.contains("Frozen (devices)"))
            #expect(Self.listRow(list.text, id).prefix(2) == ["79", "315"], "\(Self.listRow(list.text, id))")
        }
    }
}
