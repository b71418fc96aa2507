import AdminDomain
import Foundation
import GRDB
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 46, findings 2 and 3: paging a whale's items rebuilt the whole profile and wrote a
/// `user_viewed` row a click; one preview wrote a `campaign_previewed` row per sample user.
@Suite(.timeLimit(.minutes(20))) struct AuditNoise {
    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text
        case .blob(let data): String(decoding: data, as: UTF8.self)
        }
    }

    /// Each row's columns by name, as text (NULL: nil).
    static func rows(_ panel: TestPanel, _ sql: String, _ arguments: StatementArguments = []) async throws
        -> [[String: String?]]
    {
        try await DatabaseQueue(path: panel.temp.path).read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, text(row[$0] ?? .null)) })
            }
        }
    }

    @Test func aUsersItemsPageOnItsOwnAndLooksWithinHalfAnHourAreOneRowThatCountsThem() async throws {
        let panel = try await TestPanel(areas: [.support], users: 12)
        defer { panel.remove() }
        try await panel.addStaff()
        let user: Int64 = 2
        try await DatabaseQueue(path: panel.temp.path).write { db in
            for index in 0..<120 {
                try db.execute(
                    sql: """
                        INSERT INTO food_items (user_id, name, category, expiry_date, created_at, updated_at)
                        VALUES (?, ?, 'Dairy', '2031-01-01', '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                        """, arguments: [user, "Milk \(index)"])
            }
        }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let profile = try await client.get("/users/\(user)", cookie: session)
            #expect(profile.status == .ok && profile.text.contains("id=\"devices\""))
            let next = try #require(profile.text.firstMatch(of: /href="([^"]+)">Next page/)).1
            #expect(next.hasPrefix("/users/\(user)/items?"), "paging leads to the items page: \(next)")
            // The items page: the list and the way back, none of the profile's other panels.
            let items = try await client.get(String(next).replacingOccurrences(of: "&amp;", with: "&"), cookie: session)
            #expect(items.status == .ok && items.text.contains("51–100 of"))
            #expect(!items.text.contains("id=\"devices\"") && !items.text.contains("id=\"reminders\""))
            #expect(items.text.contains("href=\"/users/\(user)\""))
            let named = try await client.get("/users/\(user)/items?kind=food&name=milk%201", cookie: session)
            #expect(named.status == .ok)
            #expect(try await client.get("/users/\(user)/reminders", cookie: session).status == .ok)
            // An old profile link with the items' fields goes to the same list on the items page.
            let old = try await client.get("/users/\(user)?kind=food&state=expired", cookie: session)
            #expect(old.status == .movedPermanently)
            #expect(old.headers[.location] == "/users/\(user)/items?kind=food&state=expired")
            let sorted = try await client.get("/users/\(user)/items?sort=name", cookie: session)
            #expect(sorted.status == .badRequest && sorted.text.contains("listed nearest to today first only"))
        }
        let looks = try await Self.rows(
            panel,
            "SELECT looks, last_at, detail FROM panel_audit_log WHERE action = 'user_viewed' AND target = ?",
            ["user:\(user)"])
        #expect(looks.count == 1, "four looks within minutes are one row: \(looks)")
        #expect(looks.first?["looks"] == "4")
        let detail = (looks.first?["detail"] ?? nil) ?? ""
        #expect(
            detail == "profile; food items, a later page; food items, named: milk 1; reminders",
            "the pages seen, each once")
    }

    @Test func onePreviewIsOneRowNamingItsSampleUsersAndTheLogByUserStillFindsIt() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.addStaff(CampaignPages.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: CampaignPages.marketing)
            let created = try await client.postSigned(
                "/campaigns/new", [("template", "expiring-soon"), ("ttl", "86400"), ("when", "now")], session: cookie)
            let path = String(try #require(created.headers[.location]).prefix { $0 != "?" })
            _ = try await CampaignPages.waitForPreview(client, path, cookie: cookie)
            let id = try #require(Int64(path.split(separator: "/").last ?? ""))
            let previews =
                "SELECT action, target, detail, looks FROM panel_audit_log WHERE action = 'campaign_previewed'"
            let before = try await Self.rows(panel, previews)
            let allBefore = try await Self.rows(panel, "SELECT id FROM panel_audit_log").count
            _ = try await client.get(path, cookie: cookie)
            let after = try await Self.rows(panel, previews)
            // One row for the draft's previews by this staff member: one look more, no row more.
            #expect(after.count == 1, "one preview, one row: \(after.count)")
            #expect(try await Self.rows(panel, "SELECT id FROM panel_audit_log").count == allBefore)
            let row = try #require(after.first)
            #expect(row["action"] == "campaign_previewed" && row["target"] == "campaign:\(id)")
            let looksBefore: Int = (before.first?["looks"] ?? nil).flatMap { Int($0) } ?? -1
            let looksAfter: Int = (row["looks"] ?? nil).flatMap { Int($0) } ?? -1
            #expect(looksAfter == looksBefore + 1, "the look counted in the row")
            let shown = try await Self.rows(panel, "SELECT DISTINCT user_id FROM panel_audit_users ORDER BY user_id")
                .compactMap { ($0["user_id"] ?? nil).flatMap { Int64($0) } }
            #expect(shown.count >= 2, "the sample users, listed beside the row")
            let detail = (row["detail"] ?? nil) ?? ""
            for user in shown { #expect(detail.contains("#\(user)"), "\(detail)") }
            // An admin filtering the log by one of those users finds the preview.
            let admin = try await panel.signIn(client)
            let first = try #require(shown.first)
            let log = try await client.get("/audit?target=user%3A\(first)", cookie: admin)
            #expect(log.status == .ok && log.text.contains("campaign_previewed"))
        }
    }

    /// Found by the tryout: a control character in the items' search was dropped and the
    /// whole list shown; a direction override in it turned the "no item matches" sentence.
    @Test func theItemsSearchRefusesAControlCharacterAndShowsAnOverrideVisibly() async throws {
        let panel = try await TestPanel(areas: [.support], users: 12)
        defer { panel.remove() }
        try await panel.addStaff()
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            for query in ["name=%00milk", "name=milk%1B", "category=%0A"] {
                let refused = try await client.get("/users/2/items?\(query)", cookie: session)
                #expect(refused.status == .badRequest && refused.text.contains("control character"), "\(query)")
                #expect(!refused.text.contains("<table"), "nothing listed in place of what was asked: \(query)")
            }
            let override = try await client.get("/users/2/items?name=%E2%80%AEabc", cookie: session)
            #expect(override.status == .ok && override.text.contains("matches “\u{FFFD}abc”"))
        }
    }
}
