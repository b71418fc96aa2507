import Foundation
import GRDB
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 48: an admin sets the global control group's share on its settings page; a refused
/// share says why and keeps what was typed; only admins reach it; a member's profile says so.
@Suite(.timeLimit(.minutes(20))) struct GlobalControlPageTests {
    static func history(_ panel: TestPanel) async throws -> [Int] {
        try await panel.areas.database.read { db in
            try Int.fetchAll(db, sql: "SELECT percent FROM panel_global_control ORDER BY id")
        }
    }

    @Test func anAdminSetsTheShareAndARefusedShareSaysWhyAndChangesNothing() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let first = try await client.get("/settings/global-control", cookie: cookie)
            #expect(first.status == .ok && first.text.contains("The share has never been set"))
            let set = try await client.postSigned("/settings/global-control", [("percent", "5")], session: cookie)
            #expect(set.status == .seeOther)
            let after = try await client.get("/settings/global-control?notice=changed", cookie: cookie)
            #expect(after.text.contains("Changed. The new share is in force now."))
            #expect(after.text.contains("<strong>5%</strong>"))
            #expect(after.text.contains(TestPanel.email), "the history names who changed it")
            for typed in ["21", "five", "5.5", "-3", "<b>7</b>"] {
                let refused = try await client.postSigned(
                    "/settings/global-control", [("percent", typed)], session: cookie)
                #expect(refused.status == .badRequest, "\(typed)")
                #expect(refused.text.contains("Not changed: the share must be a whole percent from 0 to 20"))
                #expect(!refused.text.contains("<b>7</b>"), "what was typed is escaped")
            }
            let same = try await client.postSigned("/settings/global-control", [("percent", "5")], session: cookie)
            #expect(same.status == .badRequest && same.text.contains("the share is 5% already"))
            let unknownNotice = try await client.get("/settings/global-control?notice=other", cookie: cookie)
            #expect(unknownNotice.status == .badRequest)
        }
        #expect(try await Self.history(panel) == [5])
        let audited = try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT actor_email FROM panel_audit_log WHERE action = 'global_control_changed'")
        }
        #expect(audited == [TestPanel.email])
    }

    @Test func marketingAndSupportCannotChangeIt() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.addStaff("market@corp.test", role: .marketing)
        try await panel.addStaff()
        try await panel.test { client in
            for email in ["market@corp.test", TestPanel.supportEmail] {
                let cookie = try await panel.signIn(client, email: email)
                #expect(try await client.get("/settings/global-control", cookie: cookie).status == .forbidden)
                let posted = try await client.postSigned(
                    "/settings/global-control", [("percent", "10")], session: cookie)
                #expect(posted.status == .forbidden)
            }
        }
        #expect(try await Self.history(panel).isEmpty)
    }

    @Test func aMembersProfileSaysSinceWhenAndANonMembersDoesNot() async throws {
        let panel = try await TestPanel(areas: [.support])
        defer { panel.remove() }
        let database = panel.areas.database
        try await GlobalControl(database: database).set(
            percent: 20, by: .commandLine, now: Date(timeIntervalSince1970: 1_795_000_000))
        let (key, users) = try await database.read { db in
            (
                try GlobalControlDraw.key(in: db),
                try Int64.fetchAll(db, sql: "SELECT id FROM users ORDER BY id LIMIT 200")
            )
        }
        let drawn = try #require(key)
        let member = try #require(users.first { GlobalControlDefinition.draw($0, drawn) < 2_000 })
        let other = try #require(users.first { GlobalControlDefinition.draw($0, drawn) >= 2_000 })
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let page = try await client.get("/users/\(member)", cookie: cookie)
            #expect(
                page.text.contains(
                    "In the global control group since 2026-11-18 11:06:40 UTC: gets no campaign or journey push"))
            let otherPage = try await client.get("/users/\(other)", cookie: cookie)
            #expect(otherPage.status == .ok && !otherPage.text.contains("In the global control group"))
        }
    }
}
