import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 37, point 4: forms and query strings were read four ways; one kept a broken escape
/// ("%zz") as typed, another dropped the field, and no route refused a field it does not
/// read. Every route that reads a form or a query string now reads it through `FormFields`:
/// a broken escape or an unknown field is refused with 400 and a sentence naming the field,
/// and nothing is changed.
@Suite(.timeLimit(.minutes(20))) struct OneFormReader {
    /// A broken escape in the field named, and a field no route reads: what each route
    /// reads is written here from its page's form and links (docs/security.md lists the
    /// routes), not from the code that declares them. `nil`: the route reads no field, so
    /// the broken escape is put in a name of its own.
    static let gets: [(path: String, field: String?)] = [
        ("/", "range"), ("/dashboard.csv", "chart"), ("/reminders", "range"), ("/reminders.csv", "range"),
        ("/account/sessions", "ended"), ("/account/password", "notice"), ("/account/two-factor", "notice"),
        ("/users", "q"), ("/users/suggestions", "q"), ("/users/1", "kind"), ("/users/1/items", "name"),
        ("/users/1/activity", "kind"),
        ("/users/1/reminders", "status"), ("/activity", "plan"), ("/activity.csv", "plan"),
        ("/campaigns", "status"), ("/campaigns/new", nil), ("/campaigns/test-users", "notice"),
        ("/settings/global-control", "notice"),
        ("/campaigns/{c}", "sample"),
        ("/campaigns/{c}/edit", nil), ("/campaigns/{c}/confirm", "recounted"), ("/campaigns/{c}/cancel", nil),
        ("/campaigns/{c}/delete", nil), ("/campaigns/{c}/events", nil), ("/campaigns/{c}/report.csv", nil),
        ("/journeys", "notice"), ("/journeys/new", nil), ("/journeys/{j}", "notice"), ("/journeys/{j}/edit", nil),
        ("/journeys/{j}/report.csv", nil), ("/audit", "actor"), ("/audit.csv", "actor"), ("/admins", "sort"),
        ("/admins/create", nil), ("/admins/{s}/disable", nil), ("/admins/{s}/reset-password", nil),
        ("/admins/{s}/reset-two-factor", nil),
        ("/admins/{s}/end-sessions", nil), ("/admins/end-all-sessions", nil), ("/admins/sign-in-failures", "cleared"),
        ("/login", "next"), ("/login/code", "next"),
    ]

    static let posts: [(path: String, field: String?)] = [
        ("/dashboard/refresh", "range"), ("/logout", nil), ("/account/sessions/end-others", "password"),
        ("/account/password", "current"), ("/account/two-factor/begin", nil), ("/account/two-factor/confirm", "code"),
        ("/account/two-factor/recovery-codes", "code"), ("/account/two-factor/disable", "code"),
        ("/campaigns/new", "title"), ("/campaigns/test-users", "email"), ("/campaigns/test-users/{u}/remove", nil),
        ("/settings/global-control", "percent"),
        ("/campaigns/{c}/edit", "title"), ("/campaigns/{c}/test-send", "user"),
        ("/campaigns/{c}/confirm", "typed_count"),
        ("/campaigns/{c}/pause", nil), ("/campaigns/{c}/resume", nil), ("/campaigns/{c}/cancel", nil),
        ("/campaigns/{c}/duplicate", nil), ("/campaigns/{c}/delete", nil), ("/campaigns/{c}/winner", "variant"),
        ("/journeys/new", "name"), ("/journeys/{j}/edit", "name"), ("/journeys/{j}/activate", nil),
        ("/journeys/{j}/pause", nil),
        ("/journeys/{j}/resume", nil), ("/journeys/{j}/end", nil), ("/journeys/{j}/delete", nil),
        ("/admins/create", "email"), ("/admins/{s}/role", "role"), ("/admins/{s}/disable", nil),
        ("/admins/{s}/enable", nil),
        ("/admins/{s}/reset-password", nil), ("/admins/{s}/reset-two-factor", nil), ("/admins/{s}/end-sessions", nil),
        ("/admins/end-all-sessions", nil), ("/admins/sign-in-failures/clear", "email"), ("/login", "email"),
        ("/login/code", "code"),
    ]

    /// Broken escapes, each in its own way.
    static let broken = ["%zz", "%", "%4", "a%2", "%C3%28", "%FF", "%E2%82"]

    // MARK: The reader itself

    @Test func browsersSubmissionsReadAsTyped() {
        // As Firefox and Chrome encode a form: "+" a space, UTF-8 escaped, "+" itself and
        // "&" "=" escaped, empty fields present, CRLF in a text area.
        let form = FormFields(
            "name=&title=Caf%C3%A9+au+lait&body=Line+1%0D%0ALine+2&q=a%2Bb%26c%3Dd&%C3%A9t%C3%A9=%E2%9C%93&empty")
        #expect(form.brokenEscape == nil)
        #expect(form.list.map(\.name) == ["name", "title", "body", "q", "été", "empty"])
        #expect(form["name"] == "")
        #expect(form["title"] == "Café au lait")
        #expect(form["body"] == "Line 1\r\nLine 2")
        #expect(form["q"] == "a+b&c=d")
        #expect(form["été"] == "✓")
        #expect(form["empty"] == "")
        #expect(form["missing"] == nil)
        #expect(FormFields("").list.isEmpty)
        #expect(FormFields("range=1h&range=24h").values("range") == ["1h", "24h"])
    }

    @Test func aBrokenEscapeIsRefusedNamingItsFieldAndKeptAsSent() {
        for escape in Self.broken {
            let form = FormFields("title=ok&body=x\(escape)y")
            let sentence = form.brokenEscape
            #expect(sentence?.contains("“body”") == true, "\(escape): \(sentence ?? "no refusal")")
            #expect(form.problem(known: ["title", "body"]) == sentence)
            #expect(form["body"] == "x\(escape)y", "kept as sent, so a form shown again loses nothing")
            #expect(form["title"] == "ok")
        }
        #expect(FormFields("a%zzb=1").brokenEscape?.contains("name") == true)
    }

    @Test func anUnknownOrRepeatedFieldIsRefusedNamingIt() {
        #expect(FormFields("q=x&zz_unknown=1").problem(known: ["q"])?.contains("“zz_unknown”") == true)
        #expect(FormFields("q=x&q=y").problem(known: ["q"])?.contains("“q”") == true)
        #expect(FormFields("range=1h&range=24h").problem(known: ["range"], repeatable: ["range"]) == nil)
        #expect(FormFields("q=x").problem(known: ["q", "by"]) == nil)
    }

    // MARK: Every route

    /// The panel's state that a form could change: every panel table's size, the audit rows
    /// of changes (a refused test send shows the campaign's page again, whose previews are
    /// looks at users and audited as such), and the rows a refused form on these routes
    /// would have changed.
    private func state(_ panel: TestPanel) async throws -> [String] {
        try await panel.areas.database.read { db in
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'panel_%'
                      AND name NOT IN ('panel_audit_log', 'panel_audit_users')
                      AND name NOT LIKE 'panel_usual_hour%' ORDER BY name
                    """
            )
            // The usual hours are the panel's own background job's (it builds them at start,
            // whatever the requests do): not a change a refused form could make.
            var lines = try tables.map { table in
                "\(table): \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1)"
            }
            for sql in [
                "SELECT id, role, disabled_at, password_hash FROM panel_admins ORDER BY id",
                "SELECT id, status, title, body FROM panel_campaigns ORDER BY id",
                "SELECT * FROM panel_journeys ORDER BY rowid",
                "SELECT action, target FROM panel_audit_log WHERE action != 'campaign_previewed' ORDER BY id",
                "SELECT admin_id, confirmed_at FROM panel_two_factor ORDER BY admin_id",
            ] {
                lines += try Row.fetchAll(db, sql: sql).map(\.description)
            }
            return lines
        }
    }

    @Test func everyRouteRefusesABrokenEscapeAndAnUnknownFieldAndChangesNothing() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let staffEmail = try await panel.addStaff()
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            // Something for each route with an id to change, had it read the form.
            let campaign = try JourneyPages.id(
                from: try await client.postSigned("/campaigns/new", ControlCharacters.composer, session: admin))
            let journey = try JourneyPages.id(
                from: try await client.postSigned("/journeys/new", JourneyPages.winBack, session: admin))
            let staff = try #require(
                try await panel.areas.database.read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM panel_admins WHERE email = ?", arguments: [staffEmail])
                })
            func path(_ template: String) -> String {
                template.replacingOccurrences(of: "{c}", with: String(campaign)).replacingOccurrences(
                    of: "{j}", with: String(journey)
                )
                .replacingOccurrences(of: "{s}", with: String(staff)).replacingOccurrences(of: "{u}", with: "1")
            }
            _ = try await CampaignPages.waitForPreview(client, "/campaigns/\(campaign)", cookie: admin)
            let before = try await state(panel)
            let token = CSRFToken.forSession(String(admin.drop { $0 != "=" }.dropFirst()))
            let login = try await client.loginForm()

            for (template, field) in Self.gets {
                let url = path(template)
                let cookie = template.hasPrefix("/login") ? login.cookie : admin
                for escape in ["%zz", "%C3%28"] {
                    let answer = try await client.get("\(url)?\(field ?? "x")=a\(escape)", cookie: cookie)
                    #expect(answer.status == .badRequest, "GET \(template) \(escape)")
                    #expect(
                        answer.text.contains("“\(field ?? "x")”") && answer.text.contains("not a valid escape"),
                        "GET \(template): \(escape)")
                }
                let unknown = try await client.get("\(url)?zz_unknown=1", cookie: cookie)
                #expect(unknown.status == .badRequest, "GET \(template) unknown field")
                #expect(unknown.text.contains("“zz_unknown”"), "GET \(template): a sentence naming the field")
            }

            for (template, field) in Self.posts {
                let url = path(template)
                let signIn = template.hasPrefix("/login")
                let cookie = signIn ? login.cookie : admin
                let csrf = signIn ? login.token : token
                for escape in ["%zz", "%"] {
                    let answer = try await client.execute(
                        uri: url, method: .post,
                        headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie],
                        body: ByteBuffer(string: "_csrf=\(csrf)&\(field ?? "x")=a\(escape)"))
                    #expect(answer.status == .badRequest, "POST \(template) \(escape)")
                    #expect(
                        answer.text.contains("“\(field ?? "x")”") && answer.text.contains("not a valid escape"),
                        "POST \(template): \(escape)")
                }
                let unknown = try await client.postForm(url, [("_csrf", csrf), ("zz_unknown", "1")], cookie: cookie)
                #expect(unknown.status == .badRequest, "POST \(template) unknown field")
                #expect(unknown.text.contains("“zz_unknown”"), "POST \(template): a sentence naming the field")
                // A form's action carries no query: a field there is refused too.
                let inQuery = try await client.postForm("\(url)?zz_unknown=1", [("_csrf", csrf)], cookie: cookie)
                #expect(inQuery.status == .badRequest, "POST \(template)?zz_unknown")
            }
            let after = try await state(panel)
            #expect(
                after == before,
                """
                nothing was changed: \(after.filter { !before.contains($0) }) \
                were \(before.filter { !after.contains($0) })
                """
            )
            #expect(try await client.get("/", cookie: admin).status == .ok, "still signed in")
        }
    }

    /// Every route of docs/security.md's table is in this suite's tables, so a new route that
    /// reads a form is tried here too.
    @Test func theTablesCoverEveryRoute() throws {
        let text = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/security.md"), encoding: .utf8)
        let documented = Set(text.matches(of: /\| `(GET|POST) ([^`]+)` \|/).map { "\($0.output.1) \($0.output.2)" })
        func pattern(_ path: String) -> String {
            path.replacingOccurrences(of: "{c}", with: ":id").replacingOccurrences(of: "{j}", with: ":id")
                .replacingOccurrences(of: "{s}", with: ":id").replacingOccurrences(of: "{u}", with: ":id")
                .replacingOccurrences(of: "/users/1", with: "/users/:id")
        }
        let tried = Set(Self.gets.map { "GET \(pattern($0.path))" } + Self.posts.map { "POST \(pattern($0.path))" })
        #expect(documented.count > 60, "the table was read")
        #expect(documented.subtracting(tried).isEmpty, "routes not tried: \(documented.subtracting(tried).sorted())")
    }

    /// The other ways of reading a form or a query are gone from the sources: Hummingbird's
    /// decoder and query parameters, Foundation's lenient percent decoding, a split by hand.
    @Test func noOtherReaderIsLeft() throws {
        let sources = TestPaths.repositoryRoot.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter {
                $0.pathExtension == "swift" && $0.lastPathComponent != "FormFields.swift"
            } ?? []
        let others = [
            "queryParameters", "URLEncodedForm", ".decode(as:", "removingPercentEncoding", #"split(separator: "&")"#,
        ]
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for other in others where text.contains(other) { found.append("\(file.lastPathComponent): \(other)") }
        }
        #expect(files.count > 250, "the sources were found")
        #expect(found.isEmpty, "\(found)")
    }

    /// Forms as a browser sends them still pass: spaces as "+", UTF-8, empty fields.
    @Test func browsersFormsStillPass() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let token = CSRFToken.forSession(String(admin.drop { $0 != "=" }.dropFirst()))
            let composer =
                "_csrf=\(token)&name=&template=&title=Caf%C3%A9+au+lait+%E2%9C%93&body=Deux+lignes%0D%0Aici"
                + "&deep_link=&ttl=86400"
                + "&bucket=&plan=&platform=&signed_up_from=&signed_up_to=&when=now&send_at=&local_time=&per_second="
            let created = try await client.execute(
                uri: "/campaigns/new", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .cookie: admin],
                body: ByteBuffer(string: composer))
            #expect(created.status == .seeOther, "\(created.text.prefix(2_000))")
            let title = try await panel.areas.database.read { db in
                try String.fetchOne(db, sql: "SELECT title FROM panel_campaigns")
            }
            #expect(title == "Café au lait ✓")
            let search = try await client.get("/users?by=any&q=Jos%C3%A9+Garc%C3%ADa", cookie: admin)
            #expect(search.status == .ok)
            #expect(search.text.contains("José García"), "the search box shows what was typed")
            #expect(
                try await client.get("/activity?bucket=active&plan=&status=&platform=&from=&to=", cookie: admin).status
                    == .ok)
            #expect(try await client.get("/audit?actor=&action=&target=&from=&to=", cookie: admin).status == .ok)
        }
    }
}
