import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// The verdict on a served profile, and a user's reminders page: its refusals are 400 pages
/// with a sentence, and each look is audited like the profile.
@Suite(.timeLimit(.minutes(20))) struct ReachabilityPages {
    static let userID: Int64 = 800_001

    static func panel() async throws -> TestPanel {
        let panel = try await TestPanel(areas: [.support], users: 20)
        try await panel.addStaff()
        let seen = SQLiteTime.string(Date().addingTimeInterval(-86_400))
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, timezone, created_at)
                      VALUES (:id, 'reach@odd.test', 'x', 'Europe/Lisbon', '2026-01-01 00:00:00');
                    INSERT INTO notification_settings (user_id, marketing_opt_in) VALUES (:id, 0);
                    INSERT INTO devices (user_id, platform, push_provider, push_token, push_permission, created_at,
                      last_seen_at) VALUES
                      (:id, 'ios', 'apns', 'REACH-TOKEN-abc123', 'granted', '2026-01-01 00:00:00', :seen),
                      (:id, 'android', 'fcm', NULL, 'denied', '2026-01-01 00:00:00', :seen);
                    INSERT INTO food_items (id, user_id, name, expiry_date, created_at, updated_at)
                    VALUES (900001, :id, '<b>Milk</b>', '2030-01-01', '2026-01-01 00:00:00', '2026-01-01 00:00:00');
                    INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at)
                    VALUES (:id, 'food', 900001, 1, '2026-11-17 09:00:00', 'sent', '2026-11-17 09:00:20');
                    """, arguments: ["id": userID, "seen": seen])
        }
        return panel
    }

    @Test func theProfileShowsTheVerdictWithLinksToItsEvidence() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/users/\(Self.userID)", cookie: session)
            #expect(page.status == .ok)
            #expect(
                page.text.contains(
                    "Reminders reach this user on 1 of 2 devices; campaign pushes reach none: "
                        + "marketing consent withdrawn."
                ))
            #expect(page.text.contains("Marketing consent withdrawn: no campaign push is sent"))
            // Each finding's link names a section the page has.
            for anchor in ["account", "settings", "devices", "reminders", "campaign-pushes"] {
                #expect(
                    page.text.contains("href=\"#\(anchor)\"") && page.text.contains("id=\"\(anchor)\""), "\(anchor)")
            }
            #expect(
                page.text.contains("href=\"/users/\(Self.userID)/reminders\""),
                "the reminders section links to all of them")
            #expect(
                page.text.contains("<dd>30, 15, 7, 1 days before expiry</dd>") && page.text.contains("<dd>09:00</dd>"))
            // A daily time and reminder days that do not read are said so in the settings, as quiet hours are.
            try await DatabaseQueue(path: panel.temp.path).write { db in
                try db.execute(
                    sql:
                        "UPDATE notification_settings SET daily_time = '7pm', reminder_days = '30,<x>' "
                        + "WHERE user_id = ?",
                    arguments: [Self.userID])
            }
            let odd = try await client.get("/users/\(Self.userID)", cookie: session)
            #expect(
                odd.text.contains("unreadable (stored: “<bdi>7pm</bdi>”)")
                    && odd.text.contains("unreadable (stored: “<bdi>30,&lt;x&gt;</bdi>”)"))
            #expect(odd.text.contains("Daily reminder time “7pm” does not read as a time HH:MM"))

            // A failed reminder's finding leads to the user's failed reminders, where it is.
            try await DatabaseQueue(path: panel.temp.path).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                        VALUES (?, 'document', 900002, 7, '2026-11-16 09:00:00', 'failed')
                        """, arguments: [Self.userID])
            }
            let failed = try await client.get("/users/\(Self.userID)", cookie: session)
            let link = "/users/\(Self.userID)/reminders?status=failed"
            #expect(failed.text.contains("1 reminder of the last 30 days failed"))
            #expect(failed.text.contains("<a href=\"\(link)\">See the failed reminders</a>"))
            let evidence = try await client.get(link, cookie: session)
            #expect(evidence.status == .ok && evidence.text.contains("2026-11-16 09:00"))
        }
    }

    /// An item whose id is the smallest 64-bit number (hostile, yet a valid key) has no id
    /// before it to start its page after: its link opens the list at its start, and the page
    /// does not trap on the subtraction.
    @Test func anItemAtTheSmallestIdLinksToTheListsStart() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO food_items (id, user_id, name, expiry_date, created_at, updated_at)
                    VALUES (-9223372036854775808, ?, 'Edge', '2030-01-01', '2026-01-01 00:00:00',
                      '2026-01-01 00:00:00');
                    INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                    VALUES (?, 'food', -9223372036854775808, 1, '2026-11-16 09:00:00', 'failed');
                    """, arguments: [Self.userID, Self.userID])
        }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/users/\(Self.userID)/reminders", cookie: session)
            #expect(page.status == .ok)
            #expect(page.text.contains("<a href=\"/users/\(Self.userID)/items?kind=food#items\"><bdi>Edge</bdi></a>"))
        }
    }

    @Test func theRemindersPageListsRefusesUnknownValuesAndIsAudited() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        let base = "/users/\(Self.userID)/reminders"
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get(base, cookie: session)
            #expect(page.status == .ok)
            #expect(
                page.text.contains("Page 1 of 1") && page.text.contains("&lt;b&gt;Milk&lt;/b&gt;")
                    && !page.text.contains("<b>Milk"))
            #expect(page.text.contains("2026-11-17 09:00:00") && page.text.contains("Their time (Europe/Lisbon)"))
            #expect(page.text.contains("on time (20 s)"))
            #expect(try await client.get(base + "?status=sent&kind=food&item=900001", cookie: session).status == .ok)
            // The item's link opens the profile's food list at the page that begins with it,
            // even when 60 foods nearer to today come first.
            try await DatabaseQueue(path: panel.temp.path).write { db in
                for day in 0..<60 {
                    try db.execute(
                        sql: """
                            INSERT INTO food_items (user_id, name, expiry_date, created_at, updated_at)
                            VALUES (?, 'Nearer', date('now', '+\(day % 20) days'), '2026-01-01 00:00:00',
                              '2026-01-01 00:00:00')
                            """, arguments: [Self.userID])
                }
            }
            let listed = try await client.get(base, cookie: session)
            let itemLink = try #require(
                listed.text.firstMatch(of: /<a href="(\/users\/800001\/items\?[^"]*#items)">[^M]*Milk/)
            ).1
            #expect(itemLink.contains("after=") && itemLink.contains("after_id=900000"), "\(itemLink)")
            let items = try await client.get(
                String(itemLink).replacingOccurrences(of: "&amp;", with: "&"), cookie: session)
            let section = try #require(items.text.firstRange(of: "id=\"items\"")).upperBound
            let itemsHTML = items.text[section...].prefix { _ in true }
            let firstRow = try #require(itemsHTML.firstMatch(of: /<tbody>.*?<\/tr>/.dotMatchesNewlines()))
            #expect(firstRow.0.contains("&lt;b&gt;Milk&lt;/b&gt;"), "the item heads the page: \(firstRow.0)")
            for (query, sentence) in [
                ("status=bogus", "There is no reminder status “bogus”"), ("page=0", "There is no page “0”"),
                ("page=abc", "There is no page “abc”"),
                ("page=5", "There is no page 5: this list has 1 page."),
                ("kind=cats", "There is no kind of item “cats”"),
                ("item=3", "An item is chosen with its kind"), ("kind=food&item=x", "There is no item “x”"),
            ] {
                let refused = try await client.get(base + "?" + query, cookie: session)
                #expect(refused.status == .badRequest && refused.text.contains(sentence), "\(query)")
                #expect(!refused.text.contains("<table"), "nothing listed in place of what was asked: \(query)")
            }
            #expect(try await client.get("/users/99999999/reminders", cookie: session).status == .notFound)
        }
        let looks = try await panel.areas.database.read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT SUM(looks) FROM panel_audit_log WHERE action = 'user_viewed' AND target = ? "
                    + "AND detail = 'reminders; food items, a later page'",
                arguments: ["user:\(Self.userID)"]) ?? 0
        }
        // Counted in one row within half an hour (issue 46), with the look at the items between.
        #expect(looks == 11, "every look (three listed, seven refused, and the items), the refused ones too")
    }
}
