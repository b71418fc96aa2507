import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Marketing's way from a blank composer to a launched campaign, through the real router.
@Suite(.timeLimit(.minutes(20))) struct CampaignPages {
    static let marketing = "market@example.com"

    /// Opens a draft's page until its background preview is done.
    static func waitForPreview(_ client: some TestClientProtocol, _ path: String, cookie: String) async throws -> String
    {
        for _ in 0..<600 {
            let page = try await client.get(path, cookie: cookie)
            #expect(page.status == .ok)
            if page.text.contains("Continue to the confirmation") { return page.text }
            #expect(page.text.contains("http-equiv=\"refresh\""), "a page still counting refreshes itself")
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the preview never finished")
        return ""
    }

    /// Issue 32, finding 3: a server without credentials previewed "77,078 devices would get
    /// this push" and froze them all, to pause at the first send.
    @Test func withoutAProviderThePreviewCountsNoDeviceSaysWhyAndTheLaunchIsRefused() async throws {
        let panel = try await TestPanel(areas: [.campaigns], push: .none)
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let created = try await client.postSigned(
                "/campaigns/new", [("title", "Hello"), ("body", "There"), ("ttl", "86400"), ("when", "now")],
                session: cookie)
            let location = try #require(created.headers[.location])
            let path = String(location.prefix { $0 != "?" })
            let id = try #require(Int64(path.split(separator: "/").last ?? ""))
            let draft = try await Self.waitForPreview(client, path, cookie: cookie)
            #expect(draft.contains("id=\"reachable-devices\">0<"))
            #expect(
                draft.contains("id=\"missing-providers\"")
                    && draft.contains("no push provider is configured on this server"))
            let confirm = try await client.get("/campaigns/\(id)/confirm", cookie: cookie)
            #expect(
                confirm.text.contains("No device in this audience can get a campaign push now")
                    && !confirm.text.contains("Send to "))
            // A post the page never offered (it has no launch form) is refused too; the domain's
            // sentence for it is SendTimeRulesTests'.
            let launched = try await client.postSigned("/campaigns/\(id)/confirm", session: cookie)
            #expect(
                launched.status == .conflict && launched.text.contains("Not launched")
                    && launched.text.contains("no push provider is configured"))
        }
        let (status, deliveries) = try await panel.areas.database.read { db in
            (
                try String.fetchOne(db, sql: "SELECT status FROM panel_campaigns ORDER BY id DESC LIMIT 1"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_deliveries") ?? -1
            )
        }
        #expect(status == "draft" && deliveries == 0, "nothing launched, nothing frozen")
    }

    @Test func marketingComposesPreviewsConfirmsAndLaunchesAndEveryStepIsAudited() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let composer = try await client.get("/campaigns/new", cookie: cookie)
            #expect(composer.status == .ok && composer.text.contains("expiring-soon (en, pt)"))
            let created = try await client.postSigned(
                "/campaigns/new",
                [
                    ("template", "expiring-soon"), ("ttl", "86400"), ("when", "now"),
                    ("deep_link", "expirytracker://items/expiring"),
                ], session: cookie)
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            #expect(location.hasSuffix("?notice=created"))
            let path = String(location.prefix { $0 != "?" })
            let id = try #require(Int64(path.split(separator: "/").last ?? ""))
            let draft = try await Self.waitForPreview(client, path, cookie: cookie)
            let counts = try await Audience().count(CampaignSegment(), in: panel.areas.database)
            #expect(draft.contains("id=\"reachable-devices\">\(Format.grouped(counts.reachableDevices))<"))
            #expect(draft.contains("class=\"notification-title\""), "a phone-like preview")
            #expect(!draft.contains("href=\"/users/"), "marketing never gets a link to a profile")

            let confirm = try await client.get("/campaigns/\(id)/confirm", cookie: cookie)
            #expect(confirm.status == .ok)
            #expect(
                confirm.text.contains("Send campaign #\(id) to \(Format.grouped(counts.reachableDevices)) devices?"))
            #expect(confirm.text.contains("Now: sending starts as soon as you confirm"))
            #expect(!confirm.text.contains("typed_count"), "a small audience needs no typed count")

            let launched = try await client.postSigned(
                "/campaigns/\(id)/confirm", [("counted_at", try #require(MarketingPagesAgree.stamp(confirm.text)))],
                session: cookie)
            #expect(launched.status == .seeOther)
            // The providers here refuse the panel's keys: the dispatcher pauses the campaign and says why.
            var status = ""
            for _ in 0..<600 {
                status = try await client.get(path, cookie: cookie).text
                if status.contains("class=\"badge tone-warning\" id=\"status-badge\"") && status.contains("stopped: ") {
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(
                status.contains("class=\"badge tone-warning\" id=\"status-badge\"") && status.contains("stopped: "),
                "a credentials problem pauses with a visible error")
            #expect(status.contains("data-events=\"/campaigns/\(id)/events\""))
            let again = try await client.postSigned("/campaigns/\(id)/confirm", session: cookie)
            #expect(again.status == .seeOther, "a launched campaign's confirmation sends back to its page")
            let list = try await client.get("/campaigns", cookie: cookie)
            #expect(
                list.text.contains("#\(id) <bdi>") && list.text.contains("{{display_name}}"),
                "the title as typed, isolated")
        }
        try await panel.areas.auth.signIn.unauthenticatedEvents.flush()
        let actions = try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT action FROM panel_audit_log WHERE actor_email = ? ORDER BY id",
                arguments: [Self.marketing])
        }
        #expect(
            actions.contains("campaign_created") && actions.contains("campaign_launched")
                && actions.contains("campaign_previewed"))
    }

    @Test func theComposerRefusesWhatItCannotSendWithASentenceAndKeepsWhatWasTyped() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            func refused(_ fields: [(String, String)], _ sentence: String) async throws {
                let defaults = [("ttl", "86400"), ("when", "now")].filter { field in
                    !fields.contains { $0.0 == field.0 }
                }
                let answer = try await client.postSigned("/campaigns/new", defaults + fields, session: cookie)
                #expect(answer.status == .badRequest, "\(fields)")
                #expect(
                    answer.text.contains(sentence),
                    """
                    \(fields): \
                    \(answer.text.components(separatedBy: "notice error").dropFirst().first?.prefix(400) ?? "")
                    """
                )
            }
            try await refused([("title", "Hi {{nickname}}"), ("body", "b")], "unknown placeholder")
            try await refused([("title", "Hi {{display_name"), ("body", "b")], "never closed")
            try await refused([("title", "Hi {{> partial}}"), ("body", "b")], "is not a placeholder")
            try await refused([("template", "no-such-template")], "There is no template “no-such-template”")
            try await refused(
                [("title", "t"), ("body", String(repeating: "\u{1F600}", count: 1_100))],
                "providers refuse more than 4,096")
            try await refused([("title", "t"), ("body", "b"), ("plan", "gold")], "There is no plan “gold”")
            try await refused(
                [("title", "t"), ("body", "b"), ("document_type", "passport")], "A document type needs a number of days"
            )
            try await refused(
                [("title", "t"), ("body", "b"), ("when", "at"), ("send_at", "2020-01-01T09:00")], "has passed")
            try await refused(
                [("title", "t"), ("body", "b"), ("when", "local"), ("local_time", "25:00")],
                "Give the local time as HH:MM")
            try await refused(
                [("title", "t"), ("body", "b"), ("per_second", "0")], "Pushes a second must be a whole number")
            try await refused(
                [("title", "<script>alert(1)</script>"), ("body", "b"), ("plan", "gold")],
                "&lt;script&gt;alert(1)&lt;/script&gt;")
            // Text that fills to nothing: a comment, an empty plural, a section never shown.
            try await refused([("title", "{{! only a comment }}"), ("body", "b")], "the title (en) comes out empty")
            try await refused(
                [("title", "t"), ("body", "{{plural expiring_count \"\" \"\"}}")], "the message (en) comes out empty")
            try await refused([("title", "t"), ("body", "{{^display_name}}x{{/display_name}}")], "comes out empty")
            try await refused(
                [("title", "t"), ("body", "{{plural expiring_count \"\" \"items\"}}")],
                "the message (en) comes out empty")
            try await refused([("title", "\u{202E}\u{200B}"), ("body", "b")], "Write a title")
            try await refused(
                [("name", String(repeating: "n", count: 5_000)), ("title", "t"), ("body", "b")],
                "The internal name is 5000 characters")
            let nothing = try await panel.areas.campaigns.campaigns.list()
            #expect(nothing.isEmpty, "nothing refused was saved")

            // What a user typed is shown escaped on every page of the campaign.
            let created = try await client.postSigned(
                "/campaigns/new",
                [
                    ("title", "<img src=x onerror=alert(1)>"), ("body", "Hi {{display_name}} \"&\""),
                    ("ttl", "3600"), ("when", "local"), ("local_time", "09:00"),
                ], session: cookie)
            let page = try await client.follow(created, cookie: cookie)
            #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt;") && !page.text.contains("<img src=x"))
            #expect(page.text.contains("At the next 09:00 where each recipient is"))
        }
    }

    @Test func pauseResumeAndCancelSayWhatHappenedAndSupportMayNotTouchCampaigns() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.addStaff()
        let actor = AuditActor.commandLine
        // Due tomorrow: the dispatcher (with no provider here) leaves them be.
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "Big sale", body: "b"), by: actor)
        try await panel.areas.campaigns.campaigns.beginAndFreeze(
            id, schedule: .at(Date().addingTimeInterval(86_400)), by: actor)
        // Three went out before anyone looked.
        try await panel.areas.database.write { db in
            try db.execute(
                sql:
                    "UPDATE panel_deliveries SET state = 'accepted' WHERE id IN (SELECT id FROM panel_deliveries "
                    + "WHERE campaign_id = ? LIMIT 3)",
                arguments: [id])
        }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let paused = try await client.follow(
                try await client.postSigned("/campaigns/\(id)/pause", session: cookie), cookie: cookie)
            #expect(paused.text.contains("Paused within a second: 3 pushes had gone out"))
            let twice = try await client.postSigned("/campaigns/\(id)/pause", session: cookie)
            #expect(
                twice.status == .conflict
                    && twice.text.contains(
                        "Nothing changed: campaign #\(id) is paused: only a campaign that is sending can be paused.")
            )
            let resumed = try await client.follow(
                try await client.postSigned("/campaigns/\(id)/resume", session: cookie), cookie: cookie)
            #expect(resumed.text.contains("Resumed"))
            // Cancel asks first, on a page of its own that says what went out and what will not.
            let asked = try await client.get("/campaigns/\(id)/cancel", cookie: cookie)
            #expect(
                asked.status == .ok && asked.text.contains("Cancel campaign #\(id)?")
                    && asked.text.contains("3 pushes have gone out"))
            #expect(
                try await panel.areas.campaigns.campaigns.find(id)?.status.known == .sending, "asking changed nothing")
            let cancelled = try await client.follow(
                try await client.postSigned("/campaigns/\(id)/cancel", session: cookie), cookie: cookie)
            #expect(cancelled.text.contains("Cancelled: 3 pushes had gone out"))
            #expect(
                cancelled.text.contains("3</strong> sent, <strong data-count=\"cancelled\">"),
                "sent and cancelled apart")
            #expect(
                !cancelled.text.contains("/campaigns/\(id)/pause\"")
                    && !cancelled.text.contains("/campaigns/\(id)/resume\"")
                    && !cancelled.text.contains("/campaigns/\(id)/cancel\""),
                "a cancelled campaign offers no pause, resume or cancel")
            #expect(
                try await client.get("/campaigns/\(id)/cancel", cookie: cookie).status == .conflict,
                "nor asks to cancel again")
            #expect(try await client.get("/campaigns/999999", cookie: cookie).status == .notFound)
            // A draft is deleted, never cancelled, even by a crafted POST.
            let draft = try await panel.areas.campaigns.campaigns.create(
                CampaignDraft(title: "Draft", body: "b"), by: actor)
            let crafted = try await client.postSigned("/campaigns/\(draft)/cancel", session: cookie)
            #expect(crafted.status == .conflict && crafted.text.contains("a draft is deleted"))
            #expect(try await panel.areas.campaigns.campaigns.find(draft)?.status.known == .draft)
            // A notice typed onto a link that does not fit the campaign is not shown.
            let spoofed = try await client.get("/campaigns/\(draft)?notice=cancelled&count=999999", cookie: cookie)
            #expect(spoofed.status == .ok && !spoofed.text.contains("999,999"))
            // An unknown status filter: the sentence, with the filter links to choose from.
            let bogus = try await client.get("/campaigns?status=%3Cb%3Ebogus", cookie: cookie)
            #expect(
                bogus.status == .badRequest && bogus.text.contains("There is no campaign status “&lt;b&gt;bogus”")
                    && bogus.text.contains("href=\"/campaigns?status=cancelled\""))
            let filtered = try await client.get("/campaigns?status=cancelled", cookie: cookie)
            #expect(filtered.text.contains("Big sale") && !filtered.text.contains(">Draft<"))
            #expect(try await client.get("/campaigns/abc", cookie: cookie).status == .notFound)

            let support = try await panel.signIn(client, email: TestPanel.supportEmail)
            #expect(try await client.get("/campaigns", cookie: support).status == .forbidden)
            #expect(try await client.postSigned("/campaigns/\(id)/resume", session: support).status == .forbidden)
        }
    }

    /// The live counts as server-sent events: the state with its digest as id, and nothing
    /// again to a browser that comes back with that id until something changes.
    @Test func eventsCarryTheCountsAndALastEventIDSkipsWhatTheBrowserHas() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await panel.areas.campaigns.campaigns.beginAndFreeze(id, by: .commandLine)
        try await panel.areas.campaigns.campaigns.pause(id, by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let first = try await client.get("/campaigns/\(id)/events", cookie: cookie)
            #expect(first.status == .ok && first.headers[.contentType] == "text/event-stream")
            let lines = first.text.split(separator: "\n")
            let eventID = try #require(lines.first { $0.hasPrefix("id: ") }).dropFirst(4)
            let data = try #require(lines.first { $0.hasPrefix("data: ") }).dropFirst(6)
            let progress = try JSONDecoder().decode(CampaignProgress.self, from: Data(data.utf8))
            #expect(
                progress.status == "paused" && progress.total > 0
                    && progress.total == progress.queued + progress.waiting)
            #expect(first.text.components(separatedBy: "data: ").count == 2, "an unchanged state is sent once")

            let resumed = try await client.execute(
                uri: "/campaigns/\(id)/events", method: .get,
                headers: [.cookie: cookie, HTTPField.Name("Last-Event-ID")!: String(eventID)])
            #expect(!resumed.text.contains("data: "), "the browser already has this state")
            try await panel.areas.database.write { db in
                try db.execute(
                    sql:
                        "UPDATE panel_deliveries SET state = 'accepted', receipt = 2 WHERE id = (SELECT MIN(id) "
                        + "FROM panel_deliveries WHERE campaign_id = ?)",
                    arguments: [id])
            }
            try await Task.sleep(for: .milliseconds(500))
            let changed = try await client.execute(
                uri: "/campaigns/\(id)/events", method: .get,
                headers: [.cookie: cookie, HTTPField.Name("Last-Event-ID")!: String(eventID)])
            #expect(changed.text.contains("\"accepted\":1") && changed.text.contains("\"opened\":1"))
        }
    }

    @Test func theConfirmationWarnsOfTheSameTitleToTheSameAudienceAndTestSendsSayWhatHappened() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let segment = CampaignSegment(plan: .premium)
        let earlier = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "Spring sale", body: "b", segment: segment), by: .commandLine)
        try await panel.areas.campaigns.campaigns.beginAndFreeze(
            earlier, schedule: .at(Date().addingTimeInterval(86_400)), by: .commandLine)
        let again = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "Spring sale", body: "c", segment: segment), by: .commandLine)
        let other = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "Spring sale", body: "c", segment: CampaignSegment(plan: .free)), by: .commandLine)
        // A user with a device that could get a campaign push, and no quiet hours (a test send
        // keeps them), found by plain SQL.
        let (userID, email) = try #require(
            try await panel.areas.database.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT u.id, u.email FROM users u JOIN devices d ON d.user_id = u.id
                          LEFT JOIN notification_settings s ON s.user_id = u.id
                        WHERE u.status = 'active' AND d.push_permission = 'granted' AND d.push_token <> ''
                          AND d.push_provider IN ('fcm', 'apns')
                          AND COALESCE(s.push_enabled, 1) = 1 AND COALESCE(s.marketing_opt_in, 1) = 1
                          AND s.quiet_start IS NULL LIMIT 1
                        """
                ).map { (row: Row) -> (Int64, String) in (row[0], row[1]) }
            })
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            _ = try await Self.waitForPreview(client, "/campaigns/\(again)", cookie: cookie)
            let warned = try await client.get("/campaigns/\(again)/confirm", cookie: cookie)
            #expect(
                warned.text.contains("The same audience got a campaign with the same title in the last 7 days")
                    && warned.text.contains("/campaigns/\(earlier)\""))
            _ = try await Self.waitForPreview(client, "/campaigns/\(other)", cookie: cookie)
            #expect(
                !(try await client.get("/campaigns/\(other)/confirm", cookie: cookie)).text.contains("same title"),
                "another audience is no repeat")

            // The form offers test users only; a user id that is not one is refused.
            let page = try await client.get("/campaigns/\(again)", cookie: cookie)
            #expect(page.text.contains("There are no test users yet.") && !page.text.contains("name=\"email\""))
            let stranger = try await client.postSigned(
                "/campaigns/\(again)/test-send", [("user", String(userID))], session: cookie)
            #expect(
                stranger.status == .badRequest
                    && stranger.text.contains("Nothing was sent: that user is not on the test users list."))
            let added = try await client.postSigned(
                "/campaigns/test-users", [("email", email.uppercased())], session: cookie)
            #expect(added.status == .seeOther)
            let listed = try await client.get("/campaigns/test-users", cookie: cookie)
            #expect(listed.text.contains(email.lowercased()) || listed.text.contains(email))
            let unknown = try await client.postSigned(
                "/campaigns/test-users", [("email", "<b>nobody</b>@nowhere.test")], session: cookie)
            #expect(
                unknown.status == .badRequest
                    && unknown.text.contains(
                        "Not added: no app user has the email &lt;b&gt;nobody&lt;/b&gt;@nowhere.test")
            )
            // The providers here refuse the panel's keys: each device says so, and nothing is left unsaid.
            let tried = try await client.postSigned(
                "/campaigns/\(again)/test-send", [("user", String(userID))], session: cookie)
            #expect(
                tried.status == .ok && tried.text.contains("Test sent to") && tried.text.contains("credentials problem")
            )
            #expect(!tried.text.contains("push_token"))
            let removed = try await client.postSigned("/campaigns/test-users/\(userID)/remove", session: cookie)
            #expect(removed.status == .seeOther)
            let afterwards = try await client.postSigned(
                "/campaigns/\(again)/test-send", [("user", String(userID))], session: cookie)
            #expect(afterwards.status == .badRequest)
        }
        let audited = try await panel.areas.database.read { db in
            (
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'push_test_sent' "
                        + "AND detail LIKE 'device #%campaign #\(again) test:%'"
                ) ?? 0,
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT action FROM panel_audit_log WHERE target = ? AND action IN ('test_user_added',
                          'test_user_removed', 'campaign_test_sent', 'campaign_test_refused')
                        ORDER BY id
                        """, arguments: ["user:\(userID)"])
            )
        }
        #expect(audited.0 >= 1, "each test push is audited")
        #expect(
            audited.1 == [
                "campaign_test_refused", "test_user_added", "campaign_test_sent", "test_user_removed",
                "campaign_test_refused",
            ])
    }

    @Test func aLargeAudienceMustBeTypedToBeSent() {
        var preview = AudiencePreview()
        preview.counts.reachableDevices = 12_345
        let campaign = CampaignRecord(
            id: 7, name: nil, title: "t", body: "b", deepLink: nil, timeToLive: 60, segment: CampaignSegment(),
            template: nil,
            perSecond: nil, status: .known(.draft), statusDetail: nil, createdBy: nil,
            createdAt: PanelTime(text: "2026-11-22 10:00:00")!,
            launchedAt: nil, finishedAt: nil, schedule: .now,
            totals: .init(audience: 0, accepted: 0, received: 0, opened: 0))
        let model = CampaignConfirmModel(
            campaign: campaign, preview: preview, countedAt: Date(), similar: [], defaultTimeZone: "UTC")
        #expect(model.mustType)
        #expect(model.typedMatches("12,345") && model.typedMatches(" 12345 ") && model.typedMatches("12 345"))
        #expect(!model.typedMatches("12,344") && !model.typedMatches("") && !model.typedMatches("12,345,0"))
        preview.counts.reachableDevices = 10_000
        #expect(
            !CampaignConfirmModel(
                campaign: campaign, preview: preview, countedAt: Date(), similar: [], defaultTimeZone: "UTC"
            ).mustType)
        #expect(!model.plannedTimeHasPassed())
        let planned = CampaignRecord(
            id: 8, name: nil, title: "t", body: "b", deepLink: nil, timeToLive: 60, segment: CampaignSegment(),
            template: nil,
            perSecond: nil, status: .known(.draft), statusDetail: nil, createdBy: nil,
            createdAt: PanelTime(text: "2026-11-22 10:00:00")!,
            launchedAt: nil, finishedAt: nil, schedule: .at(Date(timeIntervalSince1970: 1_795_000_000)),
            totals: .init(audience: 0, accepted: 0, received: 0, opened: 0))
        let late = CampaignConfirmModel(
            campaign: planned, preview: preview, countedAt: Date(), similar: [], defaultTimeZone: "UTC")
        #expect(
            late.plannedTimeHasPassed(now: Date(timeIntervalSince1970: 1_795_000_001))
                && !late.plannedTimeHasPassed(now: Date(timeIntervalSince1970: 1_794_999_999)))
    }

    @Test func everyPageSaysWhereThePushesGoWhenTheBannerIsSet() async throws {
        let plain = try await TestPanel(areas: [.campaigns])
        defer { plain.remove() }
        let panel = plain.withBanner("Demo: campaign pushes go to the device simulator")
        try await panel.test { client in
            #expect(try await client.get("/login").text.contains("class=\"banner\""))
            let cookie = try await panel.signIn(client)
            #expect(
                try await client.get("/campaigns/new", cookie: cookie).text.contains(
                    "Demo: campaign pushes go to the device simulator"))
            #expect(
                try await client.get("/campaigns/424242", cookie: cookie).text.contains("class=\"banner\""),
                "error pages too")
        }
    }
}

extension TestPanel {
    /// The same panel, its pages showing `banner`.
    func withBanner(_ banner: String) -> TestPanel {
        var copy = self
        copy.configuration.banner = banner
        copy.rebuildAreas()
        return copy
    }
}
