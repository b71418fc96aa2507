import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// The lists with sortable headings, Previous and Next, and "N–M of T", driven over HTTP
/// against rows with known keys; the expected orders are SQL's, written here.
@Suite(.timeLimit(.minutes(20))) struct ListPaging {
    static let campaigns = 120

    /// A panel with 120 campaigns (every third a draft) and a marketing account.
    static func panel() async throws -> TestPanel {
        let panel = try await TestPanel(users: 12)
        try await panel.addStaff("marketing@example.com", role: .marketing)
        try await panel.addStaff()
        try await DatabaseQueue(path: panel.temp.path).write { db in
            for id in 1...Self.campaigns {
                try db.execute(
                    sql: """
                        INSERT INTO panel_campaigns (id, title, body, ttl_seconds, segment, status, created_at)
                          VALUES (?, 'x', 'y', 60, '{}', ?, ?)
                        """,
                    arguments: [
                        id, id.isMultiple(of: 3) ? "draft" : "finished",
                        String(format: "2026-11-01 10:%02d:00", id % 60),
                    ])
            }
            // A deleted draft is never listed.
            try db.execute(sql: "UPDATE panel_campaigns SET deleted_at = '2026-11-02 00:00:00' WHERE id = 60")
        }
        return panel
    }

    static func expected(_ panel: TestPanel, status: String? = nil, ascending: Bool) async throws -> [Int64] {
        try await DatabaseQueue(path: panel.temp.path).read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM panel_campaigns WHERE deleted_at IS NULL AND kind = 'campaign'
                      AND (? IS NULL OR status = ?)
                    ORDER BY id \(ascending ? "ASC" : "DESC")
                    """, arguments: [status, status])
        }
    }

    static func ids(_ page: String) -> [Int64] {
        page.matches(of: /<a href="\/campaigns\/(\d+)">#/).compactMap { Int64($0.1) }
    }

    static func link(_ page: String, _ words: String) -> String? {
        guard let match = page.firstMatch(of: try! Regex<(Substring, Substring)>("<a href=\"([^\"]+)\">\(words)</a>"))
        else { return nil }
        return String(match.1).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Next to the end, then Previous to the start, from `start`; the pages both ways.
    static func walk(_ client: some TestClientProtocol, _ start: String, session: String) async throws -> (
        forward: [[Int64]], backward: [[Int64]], pages: [String]
    ) {
        var page = try await client.get(start, cookie: session).text
        #expect(link(page, "Previous page") == nil, "no Previous on the first page")
        var forward: [[Int64]] = []
        var pages: [String] = []
        while true {
            forward.append(ids(page))
            pages.append(page)
            guard let next = link(page, "Next page") else { break }
            page = try await client.get(next, cookie: session).text
        }
        var backward = [ids(page)]
        while let previous = link(page, "Previous page") {
            page = try await client.get(previous, cookie: session).text
            backward.insert(ids(page), at: 0)
        }
        return (forward, backward, pages)
    }

    @Test func theCampaignListPagesBothWaysAndSortsBothWaysAsSQLDoes() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: "marketing@example.com")
            for (start, ascending) in [
                ("/campaigns", false), ("/campaigns?sort=created&dir=asc", true),
                ("/campaigns?sort=created&dir=desc", false),
            ] {
                let walk = try await Self.walk(client, start, session: session)
                let expected = try await Self.expected(panel, ascending: ascending)
                #expect(walk.forward.flatMap { $0 } == expected, "\(start)")
                #expect(walk.backward == walk.forward, "Previous brings back the same pages: \(start)")
                #expect(walk.forward.map(\.count) == [50, 50, 19])
                #expect(
                    walk.pages[0].contains("1–50 of 119 campaigns")
                        && walk.pages[2].contains("101–119 of 119 campaigns"))
                let sorted = ascending ? "aria-sort=\"ascending\"" : "aria-sort=\"descending\""
                #expect(walk.pages.allSatisfy { $0.contains(sorted) }, "the heading says how the list is sorted")
            }
            // A status filter keeps its order and pages the same way.
            let drafts = try await Self.walk(client, "/campaigns?status=draft&sort=created&dir=asc", session: session)
            #expect(drafts.forward.flatMap { $0 } == (try await Self.expected(panel, status: "draft", ascending: true)))
            #expect(drafts.backward == drafts.forward)
            // The heading's link turns the order round.
            let first = try await client.get("/campaigns", cookie: session).text
            #expect(first.contains("<a href=\"/campaigns?sort=created&amp;dir=asc\" class=\"sort\">Created (UTC)"))
        }
    }

    @Test func anUnknownSortOrDirectionIsRefusedWithASentence() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: "marketing@example.com")
            let sort = try await client.get("/campaigns?sort=title", cookie: session)
            #expect(
                sort.status == .badRequest
                    && sort.text.contains("The campaign list cannot be sorted by “title”: it sorts by created only."))
            let direction = try await client.get("/campaigns?sort=created&dir=up", cookie: session)
            #expect(
                direction.status == .badRequest
                    && direction.text.contains("There is no sort direction “up”: choose asc or desc."))
            let both = try await client.get("/campaigns?after=5&before=9", cookie: session)
            #expect(both.status == .badRequest && both.text.contains("That page link is broken"))
        }
    }

    /// Issue 36 (tryout): a page link the panel never writes is refused with the sentence on
    /// every list, not read as the first page: a key without its id, both ways at once, a
    /// name scan's place that is not a user id.
    @Test func aBrokenPageLinkIsRefusedOnEveryList() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            for path in [
                "/users?by=name&q=Smith&before=abc", "/users?by=name&q=Smith&after=-5",
                "/users?q=maria&after=a&before=b",
                "/users?q=Ann+Lee&after=0", "/activity?bucket=inactive&after=abc",
                "/activity?bucket=inactive&before=1e10",
                "/activity?bucket=inactive&after=5&before=9", "/users/3/items?after=abc",
                "/users/3/items?before=99999999999999999999999",
                "/activity?bucket=inactive&after=2026-01-01%2000:00:00&after_id=-4",
                "/users/3/items?kind=food&after=82&after_id=-1",
            ] {
                let page = try await client.get(path, cookie: session)
                #expect(
                    page.status == .badRequest && page.text.contains("That page link is broken"),
                    "\(path): \(page.status)")
            }
            // The links the panel writes still work.
            #expect(try await client.get("/users?by=name&q=Smith&after=5", cookie: session).status == .ok)
            #expect(try await client.get("/users?q=maria&after=maria.a", cookie: session).status == .ok)
        }
    }

    @Test func anEmptyListSaysSoWithoutATable() async throws {
        let panel = try await Self.panel()
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: "marketing@example.com")
            let page = try await client.get("/campaigns?status=paused", cookie: session)
            #expect(page.status == .ok && page.text.contains("No campaign is paused.") && !page.text.contains("<table"))
        }
    }

    /// The profile's items: a search box whose text is escaped back, matches among that user's
    /// items only, pages both ways, is audited as a look at their data, and an empty result
    /// is a sentence with no table's headings.
    @Test func aUsersItemsAreSearchedByNameWithinTheUserPagedBothWaysAndAudited() async throws {
        let panel = try await TestPanel(users: 12)
        defer { panel.remove() }
        try await panel.addStaff()
        let user: Int64 = 2
        try await DatabaseQueue(path: panel.temp.path).write { db in
            try db.execute(
                sql: "UPDATE food_items SET deleted_at = '2026-01-01 00:00:00' WHERE user_id = ?", arguments: [user])
            for index in 0..<130 {
                try db.execute(
                    sql: """
                        INSERT INTO food_items (user_id, name, category, expiry_date, created_at, updated_at)
                        VALUES (?, ?, 'Dairy', ?, '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                        """,
                    arguments: [
                        user, index.isMultiple(of: 2) ? "Cheddar \(index)" : "Milk \(index)",
                        String(format: "2031-01-%02d", 1 + index / 10),
                    ])
            }
            try db.execute(
                sql: """
                    INSERT INTO food_items (user_id, name, category, expiry_date, created_at, updated_at)
                    VALUES (4, 'Cheddar of user 4', 'Dairy', '2031-01-01', '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                    """)
        }
        let expected = try await DatabaseQueue(path: panel.temp.path).read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM food_items WHERE user_id = ? AND deleted_at IS NULL AND consumed_at IS NULL
                      AND name LIKE '%cheddar%'
                    ORDER BY expiry_date, id
                    """, arguments: [user])
        }
        try await panel.test { client in
            let session = try await panel.signIn(client, email: TestPanel.supportEmail)
            func names(_ page: String) -> [String] {
                page.matches(of: /data-label="Name">\s*<div class="cell"><bdi[^>]*>([^<]+)</).map { String($0.1) }
            }
            var page = try await client.get("/users/\(user)/items?kind=food&name=cheddar", cookie: session).text
            #expect(page.contains("1–50 of 65 food items") && !page.contains("Previous page"))
            var forward = [names(page)]
            while let next = Self.link(page, "Next page") {
                page = try await client.get(next, cookie: session).text
                forward.append(names(page))
            }
            #expect(forward.flatMap { $0 } == expected && expected.count == 65, "this user's cheddar only, in order")
            var backward = [names(page)]
            while let previous = Self.link(page, "Previous page") {
                page = try await client.get(previous, cookie: session).text
                backward.insert(names(page), at: 0)
            }
            #expect(backward == forward)
            let sorted = try await client.get("/users/\(user)/items?sort=name", cookie: session)
            #expect(sorted.status == .badRequest && sorted.text.contains("listed nearest to today first only"))
            // What was typed comes back escaped; nothing matches: a sentence, no table.
            let hostile = try await client.get("/users/\(user)/items?kind=food&name=%3Cscript%3Ex", cookie: session)
            #expect(hostile.status == .ok && !hostile.text.contains("<script>x"))
            #expect(hostile.text.contains("value=\"&lt;script&gt;x\""))
            let items = try #require(hostile.text.firstMatch(of: /id="items">([\s\S]*?)<\/section>/)).1
            #expect(items.contains("No food item of this user matches") && !items.contains("<table"))
        }
        let audited = try await DatabaseQueue(path: panel.temp.path).read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT detail FROM panel_audit_log WHERE action = 'user_viewed' AND target = ? "
                    + "AND detail IS NOT NULL",
                arguments: ["user:\(user)"])
        }
        // One row counts the looks within half an hour (issue 46); it names each search.
        #expect(
            audited.count == 1 && audited[0].contains("named: cheddar") && audited[0].contains("named: <script>x"),
            "\(audited)")
    }

    /// The audit log, newest first by (at, id): 130 rows seven to a second (ties on the time),
    /// from two actors, paged forward then back, whole and through an actor prefix (which
    /// reads each actor's index and merges them).
    @Test func theAuditLogPagesBothWaysThroughTiesAsSQLOrders() async throws {
        let panel = try await TestPanel(users: 12)
        defer { panel.remove() }
        try await DatabaseQueue(path: panel.temp.path).write { db in
            for index in 0..<130 {
                try db.execute(
                    sql: """
                        INSERT INTO panel_audit_log (at, actor_email, action, target) VALUES (?, ?, 'user_viewed', ?)
                        """,
                    arguments: [
                        String(format: "2026-11-20 10:00:%02d", index / 7),
                        index.isMultiple(of: 2) ? "ann@example.com" : "anton@example.com",
                        "user:\(index + 1)",
                    ])
            }
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            func ids(_ page: String) -> [String] {
                page.matches(of: /data-label="Target">\s*<div class="cell"><a href="\/users\/(\d+)"/).map {
                    String($0.1)
                }
            }
            for (start, actor) in [("/audit?action=user_viewed", nil), ("/audit?actor=an", "an%")]
                as [(String, String?)]
            {
                let expected = try await DatabaseQueue(path: panel.temp.path).read { db in
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT substr(target, 6) FROM panel_audit_log WHERE action = 'user_viewed'
                              AND (? IS NULL OR actor_email LIKE ?)
                            ORDER BY at DESC, id DESC
                            """, arguments: [actor, actor])
                }
                var page = try await client.get(start, cookie: session).text
                #expect(Self.link(page, "Previous page") == nil)
                var forward: [[String]] = []
                while true {
                    forward.append(ids(page))
                    guard let next = Self.link(page, "Next page") else { break }
                    page = try await client.get(next, cookie: session).text
                }
                #expect(forward.flatMap { $0 } == expected && forward.map(\.count) == [50, 50, 30], "\(start)")
                var backward = [ids(page)]
                while let previous = Self.link(page, "Previous page") {
                    page = try await client.get(previous, cookie: session).text
                    backward.insert(ids(page), at: 0)
                }
                #expect(backward == forward, "\(start)")
            }
            let sorted = try await client.get("/audit?sort=at&dir=asc", cookie: session)
            #expect(sorted.status == .badRequest && sorted.text.contains("The audit log is listed newest first only"))
            let broken = try await client.get("/audit?after=x", cookie: session)
            #expect(broken.status == .badRequest && broken.text.contains("That page link is broken"))
            let empty = try await client.get("/audit?action=campaign_launched", cookie: session)
            #expect(empty.text.contains("No entries match these filters.") && !empty.text.contains("<table"))
        }
    }

    /// The activity list by sign-up and by last activity, both ways: 130 users signed up on
    /// one day, seven to a second on both keys (ties), paged forward then back through the
    /// panel's links; the expected orders are SQL's ORDER BY on the key and id.
    @Test func theActivityListSortsBothWaysAndPagesBothWaysThroughTies() async throws {
        let panel = try await TestPanel(users: 12)
        defer { panel.remove() }
        let base = Date().addingTimeInterval(-3_600)
        try await DatabaseQueue(path: panel.temp.path).write { db in
            for index in 0..<130 {
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, password_hash, created_at, last_active_at)
                          VALUES (?, ?, 'x', ?, ?)
                        """,
                    arguments: [
                        800_000 + index, "list\(index)@example.com",
                        String(format: "2020-02-02 10:00:%02d", (index * 5) % 130 / 7),
                        SQLiteTime.string(base.addingTimeInterval(Double(index / 7))),
                    ])
            }
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            func ids(_ page: String) -> [Int64] {
                page.matches(of: /<a href="\/users\/(\d+)"><bdi/).compactMap { Int64($0.1) }
            }
            for (sort, column) in [("sign_up", "created_at"), ("last_active", "last_active_at")] {
                for ascending in [false, true] {
                    let expected = try await DatabaseQueue(path: panel.temp.path).read { db in
                        try Int64.fetchAll(
                            db,
                            sql:
                                "SELECT id FROM users WHERE id >= 800000 ORDER BY \(column) "
                                + "\(ascending ? "ASC" : "DESC"), id \(ascending ? "ASC" : "DESC")"
                        )
                    }
                    let start =
                        "/activity?bucket=active&from=2020-02-02&to=2020-02-02"
                        + "&sort=\(sort)&dir=\(ascending ? "asc" : "desc")"
                    var page = try await client.get(start, cookie: session).text
                    #expect(page.contains("aria-sort=\"\(ascending ? "ascending" : "descending")\""), "\(start)")
                    #expect(Self.link(page, "Previous page") == nil)
                    var forward: [[Int64]] = []
                    while true {
                        forward.append(ids(page))
                        guard let next = Self.link(page, "Next page") else { break }
                        page = try await client.get(next, cookie: session).text
                    }
                    #expect(forward.flatMap { $0 } == expected && forward.map(\.count) == [50, 50, 30], "\(start)")
                    var backward = [ids(page)]
                    while let previous = Self.link(page, "Previous page") {
                        page = try await client.get(previous, cookie: session).text
                        backward.insert(ids(page), at: 0)
                    }
                    #expect(backward == forward, "\(start)")
                }
            }
            let refused = try await client.get("/activity?sort=email", cookie: session)
            #expect(refused.status == .badRequest && refused.text.contains("There is no order “email”"))
            let direction = try await client.get("/activity?dir=sideways", cookie: session)
            #expect(direction.status == .badRequest && direction.text.contains("There is no sort direction “sideways”"))
            let empty = try await client.get("/activity?bucket=active&from=2019-01-01&to=2019-01-02", cookie: session)
            #expect(empty.text.contains("No user is in this list.") && !empty.text.contains("<table"))
        }
    }

    /// The staff list by email and by creation, both ways, as SQL orders them.
    @Test func theStaffListSortsByEmailAndCreationBothWays() async throws {
        let panel = try await TestPanel(users: 12)
        defer { panel.remove() }
        for email in ["zoe@example.com", "bob@example.com", "Mia@example.com", "al@example.com"] {
            try await panel.addStaff(email)
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            func emails(_ page: String) -> [String] {
                page.matches(of: /data-label="Email">\s*<div class="cell">(?:<[^>]+>)*([^<]+)</).map { String($0.1) }
            }
            for (sort, column) in [("email", "email"), ("created", "id")] {
                for dir in ["asc", "desc"] {
                    let expected = try await panel.areas.database.read { db in
                        try String.fetchAll(
                            db,
                            sql: "SELECT email FROM panel_admins ORDER BY \(column) \(dir == "asc" ? "ASC" : "DESC")")
                    }
                    let page = try await client.get("/admins?sort=\(sort)&dir=\(dir)", cookie: session).text
                    #expect(emails(page) == expected && expected.count == 5, "\(sort) \(dir)")
                    #expect(page.contains("aria-sort=\"\(dir == "asc" ? "ascending" : "descending")\""))
                }
            }
            // Each order read on its index, no sort step: the email's unique index, the primary key.
            try await panel.areas.database.read { db in
                for sql in [
                    "SELECT * FROM \"panel_admins\" ORDER BY \"email\"",
                    "SELECT * FROM \"panel_admins\" ORDER BY \"email\" DESC",
                    "SELECT * FROM \"panel_admins\" ORDER BY \"id\"",
                    "SELECT * FROM \"panel_admins\" ORDER BY \"id\" DESC",
                ] {
                    let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
                    #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(sql): \(plan)")
                    if sql.contains("email") {
                        #expect(plan.contains { $0.contains("INDEX sqlite_autoindex_panel_admins_1") }, "\(plan)")
                    }
                }
            }
            let refused = try await client.get("/admins?sort=role", cookie: session)
            #expect(refused.status == .badRequest && refused.text.contains("The staff list cannot be sorted by “role”"))
            let direction = try await client.get("/admins?dir=up", cookie: session)
            #expect(direction.status == .badRequest && direction.text.contains("There is no sort direction “up”"))
        }
    }
}
