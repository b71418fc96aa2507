import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 22, "Daily use": support's search box and what the profile shows of awkward data.
/// Every expectation comes from the rows inserted here, never from the code under test.
@Suite(.timeLimit(.minutes(20))) struct SupportDailyUse {
    static let annID: Int64 = 700_101
    static let quietOneID: Int64 = 700_102
    static let quietTwoID: Int64 = 700_103

    /// A name with a NUL and a DEL in it; quiet hours the sender reads, and two it cannot.
    static func panel() async throws -> TestPanel {
        // The campaigns' use cases make the pushes a user got.
        let panel = try await UserPages.panel(areas: [.support, .campaigns])
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, display_name, created_at) VALUES
                      (700101, 'ann.lee@known.test', 'x', 'Ann' || char(0) || 'Lee' || char(127) || ' Zebedee',
                        '2026-01-01 00:00:00'),
                      (700102, 'quiet.one@known.test', 'x', 'Quiet One', '2026-01-01 00:00:00'),
                      (700103, 'quiet.two@known.test', 'x', 'Quiet Two', '2026-01-01 00:00:00');
                    INSERT INTO notification_settings (user_id, quiet_start, quiet_end) VALUES
                      (700101, '22:00', '07:00'), (700102, '25:99', '07:00'), (700103, '7pm', '7am');
                    """)
        }
        return panel
    }

    @Test func theBoxRecognisesIdsEmailsAndNamesAndSaysWhichItSearched() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let cases: [(query: String, sentence: String, finds: Int64)] = [
                // Pasted with spaces around, as a browser's form sends them ("+") and as a link would ("%20").
                ("q=++ann.lee%40known.test++", "Searched emails starting with “ann.lee@known.test”", Self.annID),
                ("q=%20%09ann.lee%40known.test%20", "Searched emails starting with “ann.lee@known.test”", Self.annID),
                ("q=%23700102", "Searched user ids for 700102", Self.quietOneID),
                ("q=700102", "Searched user ids for 700102", Self.quietOneID),
                ("q=+700103+", "Searched user ids for 700103", Self.quietTwoID),
                ("q=quiet.tw", "Searched emails starting with “quiet.tw”", Self.quietTwoID),
                ("q=Quiet+Two", "Searched names containing “Quiet Two”", Self.quietTwoID),
                (
                    "by=any&q=Zebedee", "No email starts with “Zebedee”, so searched names containing “Zebedee”",
                    Self.annID
                ),
            ]
            for (query, sentence, id) in cases {
                let page = try await client.get("/users?\(query)", cookie: session)
                #expect(page.status == .ok, "\(query)")
                #expect(Self.visibleText(page.text).contains(sentence), "\(query)")
                #expect(page.text.contains("href=\"/users/\(id)\""), "\(query) finds #\(id)")
            }
            // A pasted NUL is no text: the page searches nothing rather than "emails starting with “”".
            let nul = try await client.get("/users?q=%00", cookie: session)
            #expect(nul.status == .ok && !Self.visibleText(nul.text).contains("Searched"))
            // An id chosen but not typed is refused with a sentence, not searched as something else.
            let refused = try await client.get("/users?by=id&q=ann", cookie: session)
            #expect(
                refused.status == .badRequest && refused.text.contains("A user id is a number, such as 123 or #123"))
        }
        let searches = try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'user_searched' ORDER BY id")
        }
        #expect(
            searches == [
                "email: ann.lee@known.test", "email: ann.lee@known.test", "id: 700102", "id: 700102", "id: 700103",
                "email: quiet.tw", "name: Quiet Two", "email, then name: Zebedee",
            ])
    }

    @Test func controlCharactersInANameAreShownAndTheRestIsKept() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let profile = try await client.get("/users/\(Self.annID)", cookie: session)
            #expect(profile.status == .ok)
            #expect(profile.text.contains("<h1><bdi>Ann\u{2400}Lee\u{2421} Zebedee</bdi></h1>"))
            #expect(!profile.text.contains("\u{0}") && !profile.text.contains("\u{7F}"))
            let found = try await client.get("/users?q=ann.lee", cookie: session)
            #expect(found.text.contains("Ann\u{2400}Lee\u{2421} Zebedee"), "search results read the whole name too")
        }
    }

    @Test func quietHoursTheSenderTreatsAsNoneAreShownAsUnreadable() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let shown: [(Int64, String)] = [
                (Self.quietOneID, "Quiet hours (local) unreadable (stored: “25:99” to “07:00”), treated as none"),
                (Self.quietTwoID, "Quiet hours (local) unreadable (stored: “7pm” to “7am”), treated as none"),
                (Self.annID, "Quiet hours (local) 22:00 to 07:00 (over midnight)"),
            ]
            for (id, sentence) in shown {
                let page = try await client.get("/users/\(id)", cookie: session)
                #expect(Self.visibleText(page.text).contains(sentence), "#\(id)")
            }
        }
    }

    /// Times the app stored that are no time are shown as stored, never as if they were one.
    @Test func unreadableTimesAreShownAsStored() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, created_at, last_active_at) VALUES
                      (700104, 'odd.times@known.test', 'x', 'not a date', 'yesterday');
                    INSERT INTO food_items (user_id, name, expiry_date, created_at, updated_at) VALUES
                      (700104, 'Mystery jar', '2026-13-45', '2026-01-01 00:00:00', '2026-01-01 00:00:00');
                    """)
        }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = Self.visibleText(try await client.get("/users/700104", cookie: session).text)
            #expect(page.contains("Signed up unreadable (stored: “not a date”)"))
            #expect(page.contains("Last active unreadable (stored: “yesterday”)"))
            #expect(page.contains("unreadable (stored: “2026-13-45”)") && page.contains("Safe (unreadable date)"))
            let found = Self.visibleText(try await client.get("/users?q=odd.times", cookie: session).text)
            #expect(found.contains("unreadable (stored: “yesterday”)"))
        }
    }

    @Test func theProfileLinksToEachOfItsSections() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/users/\(Self.annID)", cookie: session)
            for section in [
                "account", "items", "devices", "settings", "subscriptions", "reminders", "campaign-pushes", "activity",
            ] {
                #expect(page.text.contains("<a href=\"#\(section)\">"), "\(section)")
                #expect(page.text.contains("<section class=\"panel\" id=\"\(section)\">"), "\(section)")
            }
        }
    }

    /// The pushes panel shows the text each push had for this user: a text with placeholders
    /// filled with this user's values (and marked rebuilt), a plain one as it is.
    @Test func campaignPushesShowTheTextTheUserGot() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        let personal = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "Hi {{display_name}}", body: "News for {{plan}} users", name: "Personal one"),
            by: .commandLine)
        let plain = try await panel.areas.campaigns.campaigns.create(
            CampaignDraft(title: "Big news", body: "The scanner is faster"), by: .commandLine)
        try await panel.areas.database.write { db in
            for (campaign, at) in [(personal, "2026-01-02 10:00:00"), (plain, "2026-01-03 10:00:00")] {
                try db.execute(
                    sql: """
                        INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at,
                          receipt)
                        VALUES (?, 1, ?, 'accepted', ?, ?, 1)
                        """, arguments: [campaign, Self.quietOneID, at, at])
            }
            // One still waiting for the user's quiet hours to end.
            try db.execute(
                sql: """
                    INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                    VALUES (?, 2, ?, 'queued', '2026-01-04 07:00:00', '2026-01-03 23:00:00')
                    """, arguments: [plain, Self.quietOneID])
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let page = Self.visibleText(try await client.get("/users/\(Self.quietOneID)", cookie: session).text)
            #expect(page.contains("#\(personal) Personal one Hi Quiet One News for free users (rebuilt)"))
            #expect(
                page.contains("#\(plain) Big news Big news The scanner is faster #1"),
                "a plain text is not marked rebuilt")
            #expect(!page.contains("{{display_name}}"))
            #expect(page.contains("The values a push was filled with are not kept"))
            #expect(page.contains("queued due 2026-01-04 07:00:00 UTC"))
        }
    }

    /// A page's text as read: tags dropped, entities of the escaper decoded, spaces collapsed.
    static func visibleText(_ html: String) -> String {
        html.replacing(/<[^>]*>/, with: " ")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: "“ ", with: "“").replacingOccurrences(of: " ”", with: "”")
            .replacingOccurrences(of: " )", with: ")").replacingOccurrences(of: "( ", with: "(")
    }
}
