import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 32, finding 6: `a%00b` was stored as `a` (SQLite reads a bound text up to its first
/// NUL), a staff email with a NUL created a shorter account than the notice showed, and the
/// audit log kept the cut text. Every form field now refuses control characters with a
/// sentence naming the field, before anything is stored; a message body keeps its tabs and
/// line breaks.
@Suite(.timeLimit(.minutes(20))) struct ControlCharacters {
    static let marketing = "market@example.com"

    /// A composer form that is accepted as it is: a message and three variants.
    static let composer: [(String, String)] = [
        ("name", "Spring"), ("title", "Hello"), ("body", "Your items"), ("ttl", "86400"), ("when", "now"),
        ("title_b", "Hi B"), ("body_b", "Body B"), ("title_c", "Hi C"), ("body_c", "Body C"), ("title_d", "Hi D"),
        ("body_d", "Body D"),
    ]

    static func replacing(_ name: String, with value: String, in fields: [(String, String)]) -> [(String, String)] {
        fields.map { $0.0 == name ? (name, value) : $0 }
    }

    private func rows(_ panel: TestPanel, _ sql: String) async throws -> [String] {
        try await panel.areas.database.read { db in try String.fetchAll(db, sql: sql) }
    }

    @Test func aControlCharacterInAnyComposerFieldIsRefusedWithASentenceAndNothingIsStored() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            let labels = [
                "name": "internal name", "title": "title", "body": "message", "title_b": "variant B",
                "body_b": "variant B",
                "title_c": "variant C", "body_c": "variant C", "title_d": "variant D", "body_d": "variant D",
            ]
            for (name, label) in labels.sorted(by: { $0.key < $1.key }) {
                let answer = try await client.postSigned(
                    "/campaigns/new", Self.replacing(name, with: "a\u{0}b<i>", in: Self.composer), session: cookie)
                #expect(answer.status == .badRequest, "\(name)")
                let text = answer.text.lowercased()
                #expect(
                    text.contains("control character") && text.contains(label.lowercased()),
                    "\(name): a sentence naming the field")
                #expect(
                    answer.text.contains("a\u{0}b&lt;i&gt;"), "\(name): what was typed is kept in the form, escaped")
            }
            // DEL, a C1 control and a tab in a one-line field.
            for value in ["a\u{7F}b", "a\u{85}b", "a\u{9B}b", "a\tb", "a\u{1B}[31mb"] {
                let answer = try await client.postSigned(
                    "/campaigns/new", Self.replacing("title", with: value, in: Self.composer), session: cookie)
                #expect(answer.status == .badRequest, "\(value.unicodeScalars.map(\.value))")
                #expect(answer.text.contains("control character"), "\(value.unicodeScalars.map(\.value))")
            }
            #expect(try await rows(panel, "SELECT title FROM panel_campaigns").isEmpty, "no campaign row")
            #expect(
                try await rows(panel, "SELECT action FROM panel_audit_log WHERE action LIKE 'campaign_%'").isEmpty,
                "no audit row")

            // The same form without them is accepted: the refusals above were for the control characters.
            let created = try await client.postSigned("/campaigns/new", Self.composer, session: cookie)
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            let id = try #require(Int64(location.prefix { $0 != "?" }.split(separator: "/").last ?? ""))
            // Editing refuses them too, and leaves the draft as it was.
            let edit = try await client.postSigned(
                "/campaigns/\(id)/edit", Self.replacing("body", with: "cut\u{0}here", in: Self.composer),
                session: cookie)
            #expect(edit.status == .badRequest)
            #expect(edit.text.contains("control character"))
            #expect(try await rows(panel, "SELECT body FROM panel_campaigns") == ["Your items"])
        }
    }

    @Test func aMessageBodyKeepsItsTabsAndLineBreaks() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let cookie = try await panel.signIn(client, email: Self.marketing)
            var fields = Self.replacing("body", with: "Line one\r\nLine two\tand a tab", in: Self.composer)
            fields = Self.replacing("body_b", with: "B one\nB two", in: fields)
            let created = try await client.postSigned("/campaigns/new", fields, session: cookie)
            #expect(created.status == .seeOther)
            // A CR alone is no line break a browser sends.
            let lone = try await client.postSigned(
                "/campaigns/new", Self.replacing("body", with: "one\rtwo", in: Self.composer), session: cookie)
            #expect(lone.status == .badRequest)
        }
        #expect(try await rows(panel, "SELECT body FROM panel_campaigns") == ["Line one\nLine two\tand a tab"])
        #expect(
            try await rows(panel, "SELECT body FROM panel_campaign_variants WHERE variant = 'b'") == ["B one\nB two"])
    }

    @Test func aStaffEmailWithAControlCharacterCreatesNoAccount() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            for (email, role) in [
                ("new.person@corp.test\u{0}<b>x</b>", "support"), ("new.person@corp.test\u{1}", "support"),
                ("new.person@corp.test\u{85}", "support"), ("new.person@corp.test", "support\u{0}"),
            ] {
                let answer = try await client.postSigned(
                    "/admins/create", [("email", email), ("role", role)], session: admin)
                #expect(answer.status == .badRequest, "\(email.unicodeScalars.map(\.value))")
                #expect(answer.text.contains("control character"), "a sentence")
                #expect(
                    answer.text.lowercased().contains(role == "support" ? "the email" : "the role"), "naming the field")
                if role == "support" {
                    #expect(
                        answer.text.contains(
                            email.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                                of: ">", with: "&gt;")),
                        "the email as typed is kept in the form, escaped")
                }
            }
        }
        #expect(
            try await rows(panel, "SELECT email FROM panel_admins WHERE email LIKE 'new.person%'").isEmpty,
            "no staff row")
        #expect(
            try await rows(panel, "SELECT detail FROM panel_audit_log WHERE action = 'admin_created'").isEmpty,
            "no audit row")
    }

    /// A sign-in whose email holds a NUL was once looked up cut short (the account before
    /// the NUL). It is refused before any lookup: it counts as no failure and locks nobody.
    @Test func aSignInWithAControlCharacterIsRefusedWithoutCountingAFailure() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            for _ in 0..<20 {
                let answer = try await client.postLogin([
                    ("email", "\(Self.marketing)\u{0}|127.0.0.1"), ("password", TestPanel.password),
                ])
                #expect(answer.status == .badRequest)
                #expect(answer.text.contains("control character") && answer.text.lowercased().contains("email"))
                #expect(answer.headers[.setCookie]?.contains("panel_session=") != true, "not signed in")
            }
            let password = try await client.postLogin([("email", Self.marketing), ("password", "wrong\u{0}")])
            #expect(password.status == .badRequest && password.text.contains("control character"))
            // The owner signs in as usual.
            #expect(try await panel.signIn(client, email: Self.marketing).hasPrefix("panel_session="))
        }
        #expect(
            try await rows(panel, "SELECT kind || ':' || email || '|' || address FROM panel_login_throttle").isEmpty,
            "no failure counted")
    }

    @Test func otherFormsRefuseControlCharactersToo() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let testUser = try await client.postSigned(
                "/campaigns/test-users", [("email", "someone@example.com\u{0}x")], session: admin)
            #expect(testUser.status == .badRequest && testUser.text.contains("control character"))
            #expect(testUser.text.contains("someone@example.com\u{0}x"), "kept as typed")
            let password = try await client.postSigned(
                "/account/password", [("current", "x\u{0}"), ("password", "y"), ("repeat", "y")], session: admin)
            #expect(password.status == .badRequest && password.text.contains("control character"))
        }
        #expect(try await rows(panel, "SELECT user_id FROM panel_test_users").isEmpty)
    }
}
