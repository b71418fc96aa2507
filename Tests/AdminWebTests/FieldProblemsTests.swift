import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// Issue 36, point 8: a refused composer listed its sentences at the top only, so a screen
/// reader on the field heard nothing and a long form had to be searched by eye (a tryout of
/// issue 35 found no `aria-invalid` nor `aria-describedby` in the codebase). Each refused field
/// is now marked and described by its sentence, and the list at the top links to it.
@Suite(.timeLimit(.minutes(20))) struct RefusalsAtTheirFields {
    static let marketing = "market@example.com"
    static let message: [(String, String)] = [("title", ""), ("body", "A message"), ("ttl", "86400"), ("when", "now")]

    /// The element whose `id` is `id`: its opening tag.
    private func tag(_ page: String, id: String) -> String? {
        page.firstMatch(of: try! Regex("<[a-z]+ [^>]*id=\"\(id)\"[^>]*>")).map { String($0.output[0].substring ?? "") }
    }

    private func expectMarked(_ page: String, field: String, sentence: String, _ note: Comment) {
        let control = tag(page, id: field) ?? ""
        #expect(
            control.contains("aria-invalid=\"true\"") && control.contains("aria-describedby=\"\(field)-error\""),
            "\(note): \(control)")
        #expect(
            page.contains("<p class=\"field-error\" id=\"\(field)-error\">\(sentence)</p>"),
            "\(note): the sentence beside the field")
        #expect(page.contains("<li><a href=\"#\(field)\">\(sentence)</a></li>"), "\(note): the summary links to it")
    }

    @Test func aRefusedComposerMarksTheFieldAndLinksItFromTheSummary() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: Self.marketing)
            let refused = try await client.postSigned(
                "/campaigns/new", Self.message + [("food_days", "400"), ("title_b", "Only a title")], session: session)
            #expect(refused.status == .badRequest)
            expectMarked(
                refused.text, field: "title", sentence: "Write a title, or choose a template.", "the empty title")
            expectMarked(
                refused.text, field: "food_days",
                sentence: "Food expiring within must be a whole number from 0 to 365.", "a number out of range")
            expectMarked(
                refused.text, field: "body_b",
                sentence:
                    "Variant B needs both a title and a message (or a template); leave both empty for no variant B.",
                "a variant's missing half")
            #expect(
                !(tag(refused.text, id: "body") ?? "").contains("aria-invalid"), "a field that was fine is not marked")
            // The variant typed is in sight: its fold is open.
            #expect(refused.text.contains("<details class=\"variants\" id=\"variants\" open>"))
            #expect(refused.text.contains("value=\"Only a title\""))
        }
    }

    /// Variants B to D are folded on a new composer, and open on a draft that has one.
    @Test func variantsAreFoldedUntilTheyHoldSomething() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: Self.marketing)
            let blank = try await client.get("/campaigns/new", cookie: session)
            #expect(blank.text.contains("<details class=\"variants\" id=\"variants\"><summary>"), "folded")
            let saved = try await client.postSigned(
                "/campaigns/new",
                [
                    ("title", "A"), ("body", "B"), ("title_b", "A2"), ("body_b", "B2"),
                    ("ttl", "86400"), ("when", "now"),
                ], session: session)
            #expect(saved.status == .seeOther)
            let id = try #require(saved.headers[.location]?.split(separator: "?").first?.split(separator: "/").last)
            let edit = try await client.get("/campaigns/\(id)/edit", cookie: session)
            #expect(
                edit.text.contains("<details class=\"variants\" id=\"variants\" open>"),
                "a draft with a variant B shows it")
        }
    }

    @Test func aRefusedJourneyMarksItsFields() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.addStaff(Self.marketing, role: .marketing)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: Self.marketing)
            let refused = try await client.postSigned(
                "/journeys/new",
                [
                    ("title", "Hi"), ("body", "There"), ("ttl", "86400"), ("trigger", "inactive_days"),
                    ("trigger_days", "thirty"), ("send_at", "daily_time"), ("reentry_days", "0"),
                ],
                session: session)
            #expect(refused.status == .badRequest)
            expectMarked(
                refused.text, field: "trigger_days",
                sentence: "The trigger's number of days must be a whole number: “thirty” is not.",
                "a number that is none")
        }
    }

    /// The add-staff form: a refused address stays in the field, marked, and the sentence
    /// at the top links to it.
    @Test func theStaffFormKeepsTheTypedEmailAndMarksIt() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let taken = try await client.postSigned(
                "/admins/create", [("email", TestPanel.email), ("role", "support")], session: admin)
            #expect(taken.status == .badRequest)
            let field = tag(taken.text, id: StaffView.emailField) ?? ""
            #expect(field.contains("value=\"\(TestPanel.email)\""), "the address typed is kept: \(field)")
            expectMarked(
                taken.text, field: StaffView.emailField, sentence: "An account with that email already exists.",
                "a taken address")
            let typo = try await client.postSigned(
                "/admins/create", [("email", "  Ana.Lopez@example,com "), ("role", "marketing")], session: admin)
            #expect(typo.status == .badRequest)
            #expect(
                (tag(typo.text, id: StaffView.emailField) ?? "").contains("value=\"Ana.Lopez@example,com\""),
                "kept as typed, trimmed")
            #expect(typo.text.contains("value=\"marketing\" selected"), "and the role chosen")
        }
    }
}
