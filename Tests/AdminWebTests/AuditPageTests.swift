import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct AuditLogPage {
    private func panelWithEntries(_ count: Int) async throws -> TestPanel {
        let panel = try await TestPanel()
        for index in 0..<count {
            try await panel.areas.auth.signIn.audit.append(
                AuditEntry(
                    actor: nil, actorEmail: index % 3 == 0 ? "mallory@example.com" : "eve@example.com",
                    clientAddress: "10.0.0.\(index % 7)",
                    action: index % 2 == 0 ? .signInFailed : .forbidden,
                    target: index == 5 ? "<script>alert(1)</script>" : "admin:\(index)",
                    detail: index == 6 ? "=HYPERLINK(\"http://evil\"), \"quoted\"" : nil))
        }
        return panel
    }

    @Test func pagesGoBackThroughEveryEntryOnceNewestFirst() async throws {
        let panel = try await panelWithEntries(120)
        defer { panel.remove() }
        let expected = try await panel.areas.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log")!
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            var uri = "/audit"
            var seen: [String] = []
            var pages = 0
            while true {
                let page = try await client.get(uri, cookie: session)
                #expect(page.status == .ok)
                // Each body row's cells: when, who, from, action, target, detail.
                for row in page.text.components(separatedBy: "<tr>").dropFirst(2) {
                    let cells = row.matches(of: /<td[^>]*>(?:<div class="cell">)?(?:<bdi[^>]*>|<a [^>]*>)?([^<]*)/).map
                    { String($0.1) }
                    if cells.count >= 5 { seen.append("\(cells[1])|\(cells[3])|\(cells[4])") }
                }
                pages += 1
                guard let next = page.text.firstMatch(of: /<a href="([^"]+)">Next page<\/a>/) else { break }
                uri = String(next.1).replacingOccurrences(of: "&amp;", with: "&")
            }
            // The sign-in above added one row before the first page was read.
            #expect(seen.count == expected + 1)
            #expect(pages == 3)
            // Rows stored as `admin:N` read `staff:N`.
            #expect(seen.filter { $0.contains("staff:") }.count == 118, "all but admin:0, not an id, and index 5")
            #expect(!seen.contains { $0.contains("|admin:1") })
            #expect(
                Set(seen.filter { $0.contains("staff:") }).count == seen.filter { $0.contains("staff:") }.count,
                "no duplicates")
        }
    }

    @Test func filtersNarrowTheListAndBadInputIsExplained() async throws {
        let panel = try await panelWithEntries(30)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let filtered = try await client.get("/audit?action=forbidden&actor=MALLORY@example.com", cookie: session)
            #expect(filtered.status == .ok)
            #expect(filtered.text.contains("5 entries on this page"), "indexes 3, 9, 15, 21, 27")
            #expect(filtered.text.contains("<option value=\"forbidden\" selected>"))
            let hostile = try await client.get("/audit?target=%3Cscript%3Ealert(1)%3C/script%3E", cookie: session)
            #expect(hostile.text.contains("1 entry on this page"))
            #expect(!hostile.text.contains("<script>alert(1)"))
            for bad in ["/audit?from=2026-13-01", "/audit?to=yesterday", "/audit?action=%3Cb%3Edrop%3C/b%3E"] {
                let response = try await client.get(bad, cookie: session)
                #expect(response.status == .badRequest, "\(bad)")
                #expect(response.text.contains("notice error"))
                #expect(!response.text.contains("<b>drop"))
            }
            let days = try await client.get("/audit?from=2000-01-01&to=2000-01-02", cookie: session)
            #expect(days.text.contains("No entries match these filters."))
        }
    }

    /// Issue 46, finding 14c: `/audit.csv?sort=anything` was served where `/audit` refuses it.
    /// The CSV refuses an order, and a broken page link, with the page's own sentence.
    @Test func theCSVRefusesAnOrderAsThePageDoes() async throws {
        let panel = try await panelWithEntries(3)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            for query in ["sort=anything", "dir=asc", "sort=at&dir=desc", "after=x", "after=1&before=2"] {
                let page = try await client.get("/audit?\(query)", cookie: session)
                let csv = try await client.get("/audit.csv?\(query)", cookie: session)
                #expect(page.status == .badRequest && csv.status == .badRequest, "\(query): \(csv.status)")
                #expect(csv.headers[.contentType]?.hasPrefix("text/html") == true, "\(query)")
                let sentence = try #require(page.text.firstMatch(of: /<p>([^<]*(newest first|page link)[^<]*)<\/p>/)?.1)
                #expect(csv.text.contains(String(sentence)), "\(query): the same sentence")
            }
        }
        let exported = try await panel.areas.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'audit_exported'")
        }
        #expect(exported == 0, "nothing was exported")
    }

    @Test func theCSVHasEveryMatchingRowQuotedAndDefusedAndIsAudited() async throws {
        let panel = try await panelWithEntries(10)
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let csv = try await client.get("/audit.csv?action=sign_in_failed", cookie: session)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(
                lines.first == "\u{FEFF}id,at,actor_email,client_address,action,target,detail,looks,last_at",
                "UTF-8 for spreadsheets; the looks a row counts and the last one's time (issue 46)")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"audit-log-sign-in-failed.csv\"")
            #expect(lines.count == 1 + 5, "entries 0, 2, 4, 6, 8")
            #expect(lines.contains { $0.hasSuffix(",\"'=HYPERLINK(\"\"http://evil\"\"), \"\"quoted\"\"\",1,") })
            #expect(lines.dropFirst().allSatisfy { $0.contains(",sign_in_failed,") })
        }
        let exported = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'audit_exported'")
        }
        #expect(exported == ["action=sign_in_failed"])
    }

    @Test func onlyRolesThatMayReadItSeeItInTheNavigation() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.areas.auth.admins.create(
            email: "help@example.com", password: TestPanel.password, role: .support)
        try await panel.test { client in
            #expect(try await client.get("/", cookie: try await panel.signIn(client)).text.contains(">Audit log</a>"))
            let support = try await panel.signIn(client, email: "help@example.com")
            #expect(!(try await client.get("/", cookie: support).text.contains("Audit log")))
            #expect(try await client.get("/audit", cookie: support).status == .forbidden)
        }
    }

    /// Targets say what they name and link to it; older rows' `admin:N` reads `staff:N`, and
    /// a filter finds a staff account's rows under either spelling.
    @Test func targetsAreLinksNamedForWhatTheyAre() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let adminID = try #require(
            try await panel.areas.database.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM panel_admins WHERE email = ?", arguments: [TestPanel.email])
            })
        for target in [
            "campaign:18", "user:7", "admin:4", "staff:3", "pair:eve@example.com|10.0.0.1", "user:x",
            "admin:\(adminID)",
        ] {
            try await panel.areas.auth.signIn.audit.append(
                AuditEntry(
                    actor: nil, actorEmail: "eve@example.com", clientAddress: nil,
                    action: .forbidden, target: target))
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let page = try await client.get("/audit?action=forbidden", cookie: session).text
            for link in [
                "<a href=\"/campaigns/18\">campaign:18</a>", "<a href=\"/users/7\">user:7</a>",
                "<a href=\"/admins#staff-4\">staff:4</a>", "<a href=\"/admins#staff-3\">staff:3</a>",
            ] {
                #expect(page.contains(link), "\(link)")
            }
            #expect(!page.contains(">admin:4<") && !page.contains("href=\"/users/x"), "unknown kinds stay text")
            #expect(page.contains("<bdi>pair:eve@example.com|10.0.0.1</bdi>") && page.contains("<bdi>user:x</bdi>"))
            let staff = try await client.get("/admins", cookie: session).text
            #expect(staff.contains("<tr id=\"staff-\(adminID)\">"), "the link's row exists")
            for (typed, expected) in [
                ("staff:4", "staff:4"), ("admin:4", "staff:4"), ("admin:3", "staff:3"), ("STAFF:3", nil),
            ] as [(String, String?)] {
                let filtered = try await client.get(
                    "/audit?action=forbidden&target=\(formEncode(typed))", cookie: session
                ).text
                if let expected {
                    #expect(
                        filtered.contains("1 entry on this page") && filtered.contains(">\(expected)</a>"), "\(typed)")
                } else {
                    #expect(
                        filtered.contains("No entries match these filters."),
                        "\(typed): a kind is spelled in lower case")
                }
            }
        }
        // Rows are never rewritten; new rows say `staff:`.
        let stored = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT target FROM panel_audit_log WHERE target LIKE 'admin:%' ORDER BY id")
        }
        #expect(stored == ["admin:4", "admin:\(adminID)"])
        let kinds: [(String, AuditTarget)] = [
            ("admin:3", .staff(3)), ("staff:3", .staff(3)), ("user:7", .user(7)),
            ("campaign:18", .campaign(18)), ("user:07", .other("user:07")), ("admin:", .other("admin:")),
            ("all", .other("all")),
        ]
        for (text, target) in kinds { #expect(AuditTarget(stored: text) == target, "\(text)") }
    }

    /// The actor filter takes the start of an email, in any case, from the actor index; a
    /// start that matches too many people is refused with a sentence.
    @Test func theActorFilterMatchesTheStartOfAnEmail() async throws {
        let panel = try await panelWithEntries(30)
        defer { panel.remove() }
        for index in 1...(AuditQuery.actorLimit + 1) {
            try await panel.areas.auth.signIn.audit.append(
                AuditEntry(
                    actor: nil, actorEmail: "spray\(index)@example.com", clientAddress: nil,
                    action: .signInFailed))
        }
        let (mallory, malloryAndSpray) = try await panel.areas.database.read { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE lower(actor_email) = 'mallory@example.com'")
                    ?? 0,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE lower(substr(actor_email, 1, 1)) IN ('m', 's')"
                ) ?? 0
            )
        }
        #expect(mallory == 10 && malloryAndSpray > mallory)
        try await panel.test { client in
            let session = try await panel.signIn(client)
            for typed in ["mal", "MALLORY@EX", "mallory@example.com", "++Mallory+"] {
                let page = try await client.get("/audit?actor=\(typed)", cookie: session)
                #expect(page.status == .ok && page.text.contains("\(mallory) entries on this page"), "\(typed)")
            }
            #expect(
                try await client.get("/audit?actor=mallory%40example.co.uk", cookie: session).text.contains(
                    "No entries match these filters."))
            for path in ["/audit?actor=spray", "/audit.csv?actor=spray"] {
                let refused = try await client.get(path, cookie: session)
                #expect(refused.status == .badRequest, "\(path)")
                #expect(
                    refused.text.contains(
                        "More than \(AuditQuery.actorLimit) people's emails start with “spray”: type more of the email."
                    ))
            }
            #expect(
                try await client.get("/audit?actor=spray1", cookie: session).text.contains("entries on this page"),
                "spray1, spray10 to spray19")
        }
        try await panel.areas.database.read { db in
            let plans = [
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + AuditQuery.nextActorSQL,
                    arguments: ["prefix": "mal", "upper": "mal\u{10FFFF}", "after": ""]
                ).map { $0["detail"] as String },
                try Row.fetchAll(
                    db,
                    sql:
                        "EXPLAIN QUERY PLAN SELECT id FROM panel_audit_log WHERE actor_email = ? COLLATE NOCASE "
                        + "ORDER BY at DESC, id DESC LIMIT 51",
                    arguments: ["mallory@example.com"]
                ).map { $0["detail"] as String },
            ]
            #expect(
                plans[0].contains { $0.contains("panel_audit_log_actor (actor_email>? AND actor_email<?)") },
                "\(plans[0])")
            #expect(
                plans[1].contains { $0.contains("panel_audit_log_actor (actor_email=?)") }
                    && !plans[1].contains { $0.contains("TEMP B-TREE") },
                "\(plans[1])")
        }
    }

    /// Issue 32, finding 10: counted events are written at the next flush with their first
    /// event's time, after rows that happened later, and the log listed rows by id, so out of
    /// time order. Rows here are written in an order unlike their times, several in one
    /// second, one through the aggregator; every way of reading the log lists them by time,
    /// newest first (id within a second), and small pages neither skip nor repeat one.
    @Test func rowsAreListedByTimeWhateverOrderTheyWereWrittenIn() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let log = panel.areas.auth.signIn.audit
        let base = Date(timeIntervalSince1970: 1_900_000_000)
        // Seconds after `base` of the rows "row:0", "row:1", … in the order they are written.
        let seconds = [50, 10, 30, 30, 70, 10, 60, 30, 0, 40, 40, 20]
        let events = AuditAggregator(database: panel.areas.database)
        await events.record(
            .forbidden, actorEmail: "order@example.com", address: nil, target: "row:12", reason: nil,
            now: base.addingTimeInterval(35))
        for (index, second) in seconds.enumerated() {
            try await log.append(
                AuditEntry(
                    actor: nil, actorEmail: "order@example.com", clientAddress: nil, action: .forbidden,
                    target: "row:\(index)"), now: base.addingTimeInterval(TimeInterval(second)))
        }
        #expect(try await events.flush() == 1, "row:12 is written last, with the time of its event")
        // Newest first; within a second, the later written first.
        let expected = (seconds + [35]).enumerated().sorted { ($0.element, $0.offset) > ($1.element, $1.offset) }.map {
            "row:\($0.offset)"
        }
        for query in [
            AuditQuery(), AuditQuery(action: .forbidden), AuditQuery(actorPrefix: "order@"),
            AuditQuery(actorPrefix: "ORDER"),
            AuditQuery(target: .other("row:12")),
        ] {
            var seen: [String] = []
            var before: Int64?
            while true {
                let rows = try await log.page(query, before: before, limit: 5)
                guard let last = rows.last else { break }
                seen += rows.compactMap(\.target).filter { $0.hasPrefix("row:") }
                before = last.id
            }
            #expect(seen == (query.target == nil ? expected : ["row:12"]), "\(query)")
        }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let page = try await client.get("/audit?actor=order%40example.com", cookie: session)
            #expect(page.text.matches(of: /row:\d+/).map { String($0.0) } == expected)
        }
        // Each way of reading walks an index in (at, id) order: no sort of the matching rows,
        // which at millions of rows would be the whole log.
        try await panel.areas.database.read { db in
            let order = "ORDER BY at DESC, id DESC LIMIT 51"
            for (sql, arguments) in [
                (
                    "SELECT id FROM panel_audit_log WHERE (at, id) < (?, ?) \(order)",
                    ["2030-01-01 00:00:00", 9] as StatementArguments
                ),
                (
                    "SELECT id FROM panel_audit_log WHERE action = ? AND at >= ? AND (at, id) < (?, ?) \(order)",
                    ["forbidden", "2026-01-01", "2030-01-01 00:00:00", 9]
                ),
                (
                    "SELECT id FROM panel_audit_log WHERE actor_email = ? COLLATE NOCASE AND (at, id) < (?, ?) "
                        + "\(order)",
                    ["order@example.com", "2030-01-01 00:00:00", 9]
                ),
                ("SELECT id FROM panel_audit_log WHERE target = ? AND action = ? \(order)", ["row:12", "forbidden"]),
                // Previous: the rows above a row, read upwards on the same indexes.
                (
                    "SELECT id FROM panel_audit_log WHERE (at, id) > (?, ?) ORDER BY at ASC, id ASC LIMIT 51",
                    ["2020-01-01 00:00:00", 9]
                ),
                (
                    "SELECT id FROM panel_audit_log WHERE actor_email = ? COLLATE NOCASE AND (at, id) > (?, ?) "
                        + "ORDER BY at ASC, id ASC LIMIT 51",
                    ["order@example.com", "2020-01-01 00:00:00", 9]
                ),
            ] {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
                    $0["detail"] as String
                }
                #expect(
                    plan.contains { $0.contains("INDEX panel_audit_log_") }
                        && !plan.contains { $0.contains("TEMP B-TREE") }, "\(sql): \(plan)")
            }
        }
    }

    @Test func csvCells() {
        #expect(
            CSV.line(["a", "b,c", "say \"hi\"", "-1", "@x", "line\nbreak"])
                == "a,\"b,c\",\"say \"\"hi\"\"\",'-1,'@x,\"line\nbreak\"\r\n")
    }
}
