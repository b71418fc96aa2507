import Foundation
import GRDB
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 32, finding 5: marketing made any customer a test user, and then read their name and
/// items in test sends. Test users come from the configured domains (`--test-user-domain`) or
/// from an admin; every refused add is audited, and the page never says whether an email has
/// an account. Finding 7: every variant can be previewed and test-sent.
@Suite(.timeLimit(.minutes(20))) struct TestUserPages {
    static let marketing = "market@corp.test"

    /// An active customer of the seeded app, with a device a test push could reach and no quiet hours.
    static func customer(_ panel: TestPanel) async throws -> (id: Int64, email: String) {
        try #require(
            try await panel.areas.database.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT u.id, u.email FROM users u JOIN devices d ON d.user_id = u.id
                          LEFT JOIN notification_settings s ON s.user_id = u.id
                        WHERE u.status = 'active' AND d.push_permission = 'granted' AND d.push_token <> ''
                          AND d.push_provider IN ('fcm', 'apns')
                          AND COALESCE(s.push_enabled, 1) = 1 AND COALESCE(s.marketing_opt_in, 1) = 1
                          AND s.quiet_start IS NULL
                          AND u.email NOT GLOB '*[^a-z0-9.@]*' LIMIT 1
                        """
                ).map { (row: Row) -> (Int64, String) in (row[0], row[1]) }
            })
    }

    /// The page's error sentence, as shown.
    static func problem(_ page: String) -> String? {
        page.firstMatch(of: /class="notice error" role="alert">([^<]*)</)?.output.1.description
    }

    static func refusedAdds(_ panel: TestPanel) async throws -> [(actor: String?, target: String?, detail: String?)] {
        try await panel.areas.database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT actor_email, target, detail FROM panel_audit_log WHERE action = 'test_user_refused' "
                    + "ORDER BY id"
            )
            .map { ($0["actor_email"], $0["target"], $0["detail"]) }
        }
    }

    @Test func marketingCannotAddACustomerOutsideTheDomainsAndThePageDoesNotSayWhetherTheyHaveAnAccount() async throws {
        let panel = try await TestPanel(areas: [.campaigns], testUserDomains: ["corp.test"])
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        let customer = try await Self.customer(panel)
        let unknown = "nobody.at.all.\(customer.id)@example.com"
        let (known, stranger) = try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let page = try await client.get("/campaigns/test-users", cookie: cookie)
            #expect(
                page.text.contains("You may add the app accounts of emails at corp.test; an admin may add any app user")
            )
            let known = try await client.postSigned(
                "/campaigns/test-users", [("email", customer.email)], session: cookie)
            let stranger = try await client.postSigned("/campaigns/test-users", [("email", unknown)], session: cookie)
            return (known, stranger)
        }
        #expect(
            known.status == .badRequest && stranger.status == .badRequest, "refused either way, with the same status")
        let sentence = try #require(Self.problem(known.text))
        #expect(sentence.contains("marketing may add only emails at corp.test"), "\(sentence)")
        #expect(
            Self.problem(stranger.text) == sentence,
            "an unknown email gets the very same sentence: nothing says who has an account")
        #expect(!known.text.contains("no app user") && !stranger.text.contains("no app user"))
        #expect(known.text.contains("value=\"\(customer.email)\""), "what was typed stays in the form")
        #expect(try await panel.areas.campaigns.testSend.testUsers.list().isEmpty, "nobody was added")
        let refused = try await Self.refusedAdds(panel)
        #expect(refused.count == 2, "each refused add is audited, the unknown email too")
        #expect(refused.allSatisfy { $0.actor == Self.marketing })
        #expect(
            refused.first?.target == "user:\(customer.id)" && refused.last?.target == nil,
            "the log, which only admins read, names the account")
        #expect(refused.last?.detail?.contains(unknown) == true)
    }

    @Test func anAdminMayAddAnyAppUsersEmailAndThePageSaysSo() async throws {
        let panel = try await TestPanel(areas: [.campaigns], testUserDomains: ["corp.test"])
        defer { panel.remove() }
        let customer = try await Self.customer(panel)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let page = try await client.get("/campaigns/test-users", cookie: cookie)
            #expect(
                page.text.contains("As an admin you may add any app user")
                    && page.text.contains("Marketing may add only emails at corp.test."))
            let added = try await client.postSigned(
                "/campaigns/test-users", [("email", customer.email)], session: cookie)
            #expect(added.status == .seeOther)
            let unknown = try await client.postSigned(
                "/campaigns/test-users", [("email", "nobody@nowhere.test")], session: cookie)
            #expect(
                unknown.status == .badRequest
                    && unknown.text.contains("Not added: no app user has the email nobody@nowhere.test"))
        }
        #expect(try await panel.areas.campaigns.testSend.testUsers.list().map(\.userID) == [customer.id])
        #expect(
            try await Self.refusedAdds(panel).map(\.actor) == [TestPanel.email],
            "the admin's refused add is audited too")
    }

    @Test func marketingMayAddAnAppUserWhoseEmailIsInAConfiguredDomain() async throws {
        let panel = try await TestPanel(areas: [.campaigns], testUserDomains: ["corp.test", "example.org"])
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        // The test plays the backend: a colleague's app account.
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, display_name, status, created_at)
                    VALUES (990101, 'Tester@Corp.Test', 'x', 'Tess', 'active', '2026-01-01 00:00:00'),
                           (990102, 'tester@sub.corp.test', 'x', 'Sub', 'active', '2026-01-01 00:00:00')
                    """)
        }
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let added = try await client.postSigned(
                "/campaigns/test-users", [("email", "tester@corp.TEST")], session: cookie)
            #expect(added.status == .seeOther)
            let subdomain = try await client.postSigned(
                "/campaigns/test-users", [("email", "tester@sub.corp.test")], session: cookie)
            #expect(subdomain.status == .badRequest, "a subdomain is another domain")
            // The Kelvin sign lower-cases to k, but SQLite's NOCASE does not fold it: no way around the list.
            let kelvin = try await client.postSigned(
                "/campaigns/test-users", [("email", "x@\u{212A}orp.test")], session: cookie)
            #expect(kelvin.status == .badRequest)
        }
        #expect(try await panel.areas.campaigns.testSend.testUsers.list().map(\.userID) == [990101])
    }

    /// Issue 46, finding 5: `Name <email>` pasted from a ticket was refused here, though the user
    /// search takes it. It adds the address inside, as the search reads it.
    @Test func aPastedNameAndAddressAddsTheAddressInside() async throws {
        let panel = try await TestPanel(areas: [.campaigns], testUserDomains: ["corp.test"])
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, display_name, status, created_at)
                    VALUES (990201, 'tess@corp.test', 'x', 'Tess', 'active', '2026-01-01 00:00:00'),
                           (990202, 'sam@corp.test', 'x', 'Sam', 'active', '2026-01-01 00:00:00')
                    """)
        }
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let added = try await client.postSigned(
                "/campaigns/test-users", [("email", "Tess Tester <tess@corp.test>")], session: cookie)
            #expect(added.status == .seeOther, "\(Self.problem(added.text) ?? "")")
            let mailto = try await client.postSigned(
                "/campaigns/test-users", [("email", "mailto:sam@corp.test?subject=Hi")], session: cookie)
            #expect(mailto.status == .seeOther, "\(Self.problem(mailto.text) ?? "")")
        }
        #expect(try await panel.areas.campaigns.testSend.testUsers.list().map(\.userID).sorted() == [990201, 990202])
    }

    @Test func withoutADomainOnlyAnAdminAddsTestUsers() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        let customer = try await Self.customer(panel)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let page = try await client.get("/campaigns/test-users", cookie: cookie)
            #expect(
                page.text.contains("Only an admin may add test users") && !page.text.contains("name=\"email\""),
                "no form that can only refuse")
            let tried = try await client.postSigned(
                "/campaigns/test-users", [("email", customer.email)], session: cookie)
            #expect(tried.status == .badRequest && tried.text.contains("only an admin may add test users"))
        }
        #expect(try await panel.areas.campaigns.testSend.testUsers.list().isEmpty)
        #expect(try await Self.refusedAdds(panel).count == 1)
    }

    /// Finding 7: the draft's preview showed variant A only, and a test send sent A's text.
    @Test func everyVariantCanBePreviewedAndTestSentAndAnUnknownOneIsRefused() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let customer = try await Self.customer(panel)
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(
                title: "Title A", body: "Body A",
                experiment: CampaignExperiment(variants: [
                    VariantMessage(variant: .b, title: "Title B", body: "Body B"),
                    VariantMessage(variant: .c, title: "Title C", body: "Body C"),
                ])), by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let c = try await client.get("/campaigns/\(id)?variant=C", cookie: cookie)
            #expect(c.status == .ok)
            #expect(
                c.text.contains("<p class=\"notification-title\"><bdi>Title C</bdi></p>")
                    && c.text.contains("<p class=\"notification-body\"><bdi>Body C</bdi></p>"),
                "variant C's text on the phone")
            #expect(
                c.text.contains("<option value=\"C\" selected>C</option>"), "the switcher says which variant is shown")
            let plain = try await client.get("/campaigns/\(id)", cookie: cookie)
            #expect(plain.text.contains("<p class=\"notification-title\"><bdi>Title A</bdi></p>"), "A by default")
            for refused in ["D", "E", "b"] {
                let page = try await client.get("/campaigns/\(id)?variant=\(refused)", cookie: cookie)
                #expect(
                    page.status == .badRequest
                        && page.text.contains("There is no variant “\(refused)”: choose one of A, B, C."), "\(refused)")
            }

            #expect(
                try await client.postSigned("/campaigns/test-users", [("email", customer.email)], session: cookie)
                    .status == .seeOther)
            // No provider is configured here: the result still lists the text each device was to get.
            let b = try await client.postSigned(
                "/campaigns/\(id)/test-send", [("user", String(customer.id)), ("variant", "B")], session: cookie)
            #expect(
                b.status == .ok && b.text.contains("Test send of variant B") && b.text.contains("<bdi>Title B</bdi>"),
                "B's text was sent")
            #expect(b.text.contains("<option value=\"B\" selected>B</option>"), "the form keeps the variant chosen")
            let unknown = try await client.postSigned(
                "/campaigns/\(id)/test-send", [("user", String(customer.id)), ("variant", "D")], session: cookie)
            #expect(
                unknown.status == .badRequest
                    && unknown.text.contains(
                        "There is no variant “D” in this campaign: choose one of A, B, C. Nothing was sent.")
            )
        }
        let sent = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'campaign_test_sent'")
        }
        #expect(sent.count == 1 && sent.first?.contains("variant B") == true, "the refused variant sent nothing")
    }

    /// Issue 46, finding 7e: a test send of variant B replaced A's results on the page. Each
    /// variant's latest test send stays on the draft's page, under its own caption.
    @Test func eachVariantKeepsItsTestSendResult() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        let customer = try await Self.customer(panel)
        let id = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(
                title: "Title A", body: "Body A",
                experiment: CampaignExperiment(variants: [
                    VariantMessage(variant: .b, title: "Title B", body: "Body B")
                ])), by: .commandLine)
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            #expect(
                try await client.postSigned("/campaigns/test-users", [("email", customer.email)], session: cookie)
                    .status == .seeOther)
            let a = try await client.postSigned(
                "/campaigns/\(id)/test-send", [("user", String(customer.id)), ("variant", "A")], session: cookie)
            #expect(
                a.status == .ok && a.text.contains("Test send of variant A") && a.text.contains("<bdi>Title A</bdi>"))
            let b = try await client.postSigned(
                "/campaigns/\(id)/test-send", [("user", String(customer.id)), ("variant", "B")], session: cookie)
            #expect(b.status == .ok)
            #expect(b.text.contains("Test send of variant B") && b.text.contains("<bdi>Title B</bdi>"), "B's result")
            #expect(
                b.text.contains("Test send of variant A")
                    && b.text.components(separatedBy: "<bdi>Title A</bdi>").count - 1 >= 2,
                "A's result is still there, beside the phone's preview of A")
            let page = try await client.get("/campaigns/\(id)", cookie: cookie)
            #expect(
                page.text.contains("Test send of variant A") && page.text.contains("Test send of variant B"),
                "both, when the draft is opened again")
            let other = try await panel.signIn(client)
            let fresh = try await client.get("/campaigns/\(id)", cookie: other)
            #expect(!fresh.text.contains("Test send of variant"), "another session's results are its own")
        }
    }
}
