import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct UserPages {
    /// A panel whose support account does the looking; some users with awkward data added.
    /// `areas`: support's, and any whose domain a test sets its data up with.
    static func panel(users: Int = 60, areas: Set<TestPanel.Area> = [.support]) async throws -> TestPanel {
        let panel = try await TestPanel(areas: areas, users: users)
        try await panel.addStaff()
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, display_name, timezone, created_at, last_active_at)
                    VALUES (700001, '<script>x</script>@odd.test', 'x', '<img src=x onerror=alert(1)>',
                            'Mars/Olympus_Mons', '2026-01-01 00:00:00', NULL);
                    INSERT INTO devices (user_id, platform, push_provider, push_token, push_permission, created_at,
                      last_seen_at)
                    VALUES (700001, 'ios', 'apns', 'TOKEN-SECRET-MIDDLE-abc123', 'granted', '2026-01-01 00:00:00',
                      '2026-01-02 00:00:00');
                    INSERT INTO documents (user_id, doc_type, title, number, expiry_date, created_at, updated_at)
                    VALUES (700001, 'passport', 'My passport', 'P99887766', '2030-01-01', '2026-01-01 00:00:00',
                      '2026-01-01 00:00:00');
                    """)
        }
        return panel
    }

    @Test func searchTakesAnyTextLiterallyAndEscapesItAndIsAudited() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let empty = try await client.get("/users", cookie: session)
            #expect(empty.status == .ok && empty.text.contains("Find a user"))
            for text in ["%", "_", "'", "\\", "<script>", "100%_x'\\<b>"] {
                let page = try await client.get("/users?by=email&q=\(formEncode(text))", cookie: session)
                #expect(page.status == .ok, "\(text)")
                #expect(!page.text.contains("<script>x"), "\(text)")
            }
            let found = try await client.get("/users?q=%3Cscript%3E", cookie: session)
            #expect(found.text.contains("&lt;script&gt;x&lt;/script&gt;@odd.test"))
            let exact = try await client.get("/users?q=MARIA.SILVA%40example.com", cookie: session)
            #expect(exact.text.contains("href=\"/users/1\""))
            for by in ["id", "name"] {
                #expect(try await client.get("/users?by=\(by)&q=1", cookie: session).status == .ok)
            }
            // An unknown way to search is refused, not replaced by the email search.
            let unknown = try await client.get("/users?by=nonsense&q=1", cookie: session)
            #expect(unknown.status == .badRequest && unknown.text.contains("There is no search by “nonsense”"))
        }
        let searches = try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'user_searched' ORDER BY id")
        }
        #expect(searches.first == "email: %")
        #expect(searches.count == 10, "every search, none for the empty form or the refused one")
    }

    @Test func suggestionsAreJSONOfEmailsThatStartWithTheText() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let response = try await client.get("/users/suggestions?q=maria.s", cookie: session)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let users = try #require(
                try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [[String: Any]])
            #expect(users.contains { $0["email"] as? String == "maria.silva@example.com" && $0["id"] as? Int == 1 })
            let page = try await client.get("/users", cookie: session)
            #expect(page.text.contains("<script src=\"/static/js/suggest.js\""))
            #expect(try await client.get("/static/js/suggest.js").status == .ok)
        }
    }

    @Test func theProfileMasksSecretsFlagsTheTimezoneEscapesAndIsAudited() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/users/700001", cookie: session)
            #expect(page.status == .ok)
            #expect(!page.text.contains("TOKEN-SECRET") && page.text.contains("•••abc123"))
            let documents = try await client.get("/users/700001/items?kind=document", cookie: session)
            #expect(!documents.text.contains("P99887766") && documents.text.contains("•••766"))
            #expect(page.text.contains("is not a timezone: dates below use UTC"))
            #expect(!page.text.contains("<img src=x") && page.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
            for bad in ["/users/0", "/users/abc", "/users/99999999", "/users/1%27", "/users/-1/activity"] {
                #expect(try await client.get(bad, cookie: session).status == .notFound, "\(bad)")
            }
            let filtered = try await client.get(
                "/users/3/items?kind=food&state=expired&category=Dairy&storage=Pantry&after=40&after_id=7",
                cookie: session)
            #expect(filtered.status == .ok)
            for (bad, sentence) in [
                ("after=40&after_id=x", "That page link is broken"),
                ("after=2020-01-01&after_id=7", "That page link is broken"),
                ("kind=cats", "There is no kind of item “cats”"),
                ("state=rotten", "There is no status “rotten”"), ("category=Shoes", "There is no category “Shoes”"),
            ] {
                let refused = try await client.get("/users/3/items?\(bad)", cookie: session)
                #expect(refused.status == .badRequest && refused.text.contains(sentence), "\(bad)")
            }
        }
        let views = try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT target || ' ' || looks FROM panel_audit_log WHERE action = 'user_viewed' ORDER BY id")
        }
        // Issue 46: looks within half an hour are one row that counts them, refused pages too.
        #expect(views == ["user:700001 2", "user:3 6"], "each look counted, with the refusals")
    }

    /// Known dead comes from the panel's own table, matched by the token's hash: a device
    /// whose token is unchanged is shown dead, and the token itself is never stored.
    @Test func theProfileShowsADeadTokenFromThePanelsOwnTable() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            #expect(!(try await client.get("/users/700001", cookie: session).text.contains("dead since")))
            try await DatabaseQueue(path: panel.temp.path).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO panel_dead_tokens (token_sha256, device_id, provider, reason, recorded_at)
                        VALUES (?, 1, 'apns', '<b>Unregistered</b>', '2026-11-20 10:00:00')
                        """, arguments: [DeadTokens.hash("TOKEN-SECRET-MIDDLE-abc123")])
            }
            let page = try await client.get("/users/700001", cookie: session)
            #expect(
                page.text.contains(
                    "<span class=\"badge tone-bad\">dead</span> since 2026-11-20 10:00:00 "
                        + "(<bdi>&lt;b&gt;Unregistered&lt;/b&gt;</bdi>)"
                ))
        }
    }

    @Test func theWhalesProfilePagesItsItems() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/users/3", cookie: session)
            #expect(page.status == .ok)
            #expect(page.text.contains("50 on this page, nearest to today first"))
            #expect(
                page.text.contains("href=\"/users/3/items?kind=food&amp;state=consumed#items\""),
                "the counts are links that filter")
            let next = try #require(
                page.text.firstMatch(of: /href="(\/users\/3\/items\?after=[^"#]+)#items">Next page/)
            ).1
            let second = try await client.get(
                String(next).replacingOccurrences(of: "&amp;", with: "&"), cookie: session)
            #expect(second.status == .ok && second.text.contains("Previous page"))
        }
    }

    @Test func theActivityLogFiltersAndRefusesBadDates() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            #expect(try await client.get("/users/3/activity?kind=login", cookie: session).status == .ok)
            let bad = try await client.get("/users/3/activity?from=yesterday", cookie: session)
            #expect(bad.status == .badRequest && bad.text.contains("From must be a date written YYYY-MM-DD."))
        }
    }
}

@Suite(.timeLimit(.minutes(20))) struct ActivityPages {
    @Test func theListShowsItsSizeAndTheCSVHoldsEveryRowAndIsAudited() async throws {
        let panel = try await TestPanel(areas: [.support], users: 3_000)
        defer { panel.remove() }
        try await panel.addStaff()
        let lists = ActivityLists(database: panel.areas.database)
        let size = try await lists.size(UserFilter(bucket: .inactive))
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let page = try await client.get("/activity?bucket=inactive", cookie: session)
            #expect(page.status == .ok)
            #expect(page.text.contains("\(Format.grouped(size.value)) users"))
            let csv = try await client.get("/activity.csv?bucket=inactive&after=x&after_id=5", cookie: session)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(
                csv.headers[.contentDisposition]?.wholeMatch(
                    of: /attachment; filename="users-inactive-as-of-\d{8}t\d{6}z\.csv"/)
                    != nil, "\(csv.headers[.contentDisposition] ?? "")")
            let lines = csv.text.split(separator: "\r\n", omittingEmptySubsequences: false)
            #expect(
                lines.first == "\u{FEFF}id,email,display_name,plan,status,created_at,last_active_at",
                "UTF-8 for spreadsheets")
            #expect(lines.count - 2 == size.value, "a header, every row from the first page on, a final line break")
            #expect(size.value > 1_000)
            let badDate = try await client.get("/activity.csv?from=1st%20May", cookie: session)
            #expect(badDate.status == .badRequest)
        }
        let exports = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'users_exported'")
        }
        #expect(exports == ["bucket=inactive"])
    }

    /// Values the panel's enums do not know show as "unknown (value)", in pages and exports alike.
    @Test func unknownValuesInTheDataShowAsUnknownAndNeverBreakAPage() async throws {
        let panel = try await UserPages.panel()
        defer { panel.remove() }
        try UnknownVocabulary.insertUser(path: panel.temp.path)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            let profile = try await client.get("/users/\(UnknownVocabulary.userID)", cookie: session)
            #expect(profile.status == .ok)
            for shown in [
                "unknown (platinum)", "unknown (banned)", "unknown (harmonyos)", "unknown (provisional)",
                "unknown (paused)",
                "unknown (pet)", "unknown (snoozed)", "unknown (web)",
            ] {
                #expect(profile.text.contains(shown), "\(shown)")
            }
            let search = try await client.get("/users?by=email&q=odd.vocabulary", cookie: session)
            #expect(search.status == .ok && search.text.contains("unknown (platinum)"))
            let list = try await client.get("/activity?bucket=never", cookie: session)
            #expect(list.status == .ok && list.text.contains("unknown (platinum)"))
            let csv = try await client.get("/activity.csv?bucket=never", cookie: session)
            #expect(csv.text.contains(",platinum,banned,"), "the export keeps the stored text")
        }
    }

    /// `/activity.csv?bucket=Never` once exported the active users while the audit row said
    /// `bucket=Never`: an unknown value is a 400 with a sentence, and nothing is served or audited.
    @Test func anUnknownListIsRefusedAndTheAuditNamesTheListServed() async throws {
        let panel = try await UserPages.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            for path in [
                "/activity?bucket=Never", "/activity.csv?bucket=Never", "/activity?plan=gold", "/activity?sort=random",
                "/activity?bucket=idle&after=x&after_id=abc",
            ] {
                let refused = try await client.get(path, cookie: session)
                #expect(refused.status == .badRequest, "\(path)")
                #expect(
                    refused.text.contains("notice error") && !refused.text.contains("users</p>"), "\(path): no list")
            }
            #expect(
                try await client.get("/activity?bucket=Never", cookie: session).text.contains(
                    "There is no activity list “Never”"))
            let csv = try await client.get(
                "/activity.csv?plan=premium&bucket=idle&from=2020-01-01&sort=sign_up", cookie: session)
            #expect(
                csv.headers[.contentDisposition]?.wholeMatch(
                    of: /attachment; filename="users-idle-premium-2020-01-01-sign-up-as-of-\d{8}t\d{6}z\.csv"/) != nil,
                "\(csv.headers[.contentDisposition] ?? "")")
            // A field the list does not read is refused (issue 37), not dropped from the address.
            #expect(
                try await client.get("/activity?platform=ios&bucket=never&junk=1", cookie: session).status
                    == .badRequest)
            _ = try await client.get("/activity?platform=ios&bucket=never", cookie: session)
        }
        let rows = try await panel.areas.database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT action || ' ' || detail FROM panel_audit_log WHERE action IN ('users_exported',
                      'activity_list_viewed') ORDER BY id
                    """)
        }
        #expect(
            rows == [
                "users_exported bucket=idle&plan=premium&from=2020-01-01&sort=sign_up",
                "activity_list_viewed bucket=never&platform=ios",
            ])
    }
}
