import AdminDomain
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// Issue 46, finding 8: forms said one refusal at a time (the composer a NUL before an
/// unknown placeholder, the password form only "the two new passwords differ").
@Suite(.timeLimit(.minutes(20))) struct EveryRefusalAtOnce {
    static func alerts(_ page: String) -> [String] {
        page.matches(of: /<p class="notice error" role="alert">([^<]*)</).map { String($0.1) }
    }

    @Test func thePasswordFormSaysEveryRefusalOfTheSubmission() async throws {
        let panel = try await TestPanel(areas: [])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let refused = try await client.postSigned(
                "/account/password", [("current", "not the password"), ("password", "short"), ("repeat", "shorter")],
                session: session)
            #expect(refused.status == .unprocessableContent)
            #expect(
                Self.alerts(refused.text) == [
                    "The current password is not right.", "The two new passwords differ.",
                    "The password must have at least 12 characters.",
                ], "\(Self.alerts(refused.text))")
            // The current password right: what is left of the new one, both at once.
            let rest = try await client.postSigned(
                "/account/password", [("current", TestPanel.password), ("password", "password"), ("repeat", "x")],
                session: session)
            #expect(
                Self.alerts(rest.text) == [
                    "The two new passwords differ.", "The password must have at least 12 characters.",
                ], "\(Self.alerts(rest.text))")
        }
    }

    @Test func theComposerSaysAControlCharacterAndItsOwnRefusalsTogether() async throws {
        let panel = try await TestPanel(areas: [.campaigns])
        defer { panel.remove() }
        try await panel.test { client in
            let session = try await panel.signIn(client)
            let refused = try await client.postSigned(
                "/campaigns/new",
                [
                    ("title", "Hi\u{0} there"), ("body", "Hello {{no_such_placeholder}}"), ("ttl", "86400"),
                    ("when", "now"),
                ], session: session)
            #expect(refused.status == .badRequest)
            let text = refused.text
            #expect(text.contains("control character"), "the NUL")
            #expect(text.contains("unknown placeholder"), "and the placeholder, in the same answer")
            #expect(text.contains("Hello {{no_such_placeholder}}"), "what was typed kept")
            // Found by the tryout: the title's sentence linked to it, and the title marked, as the body's are.
            #expect(text.contains("href=\"#title\""), "the sentence leads to the title")
            let title = text.matches(of: /<input[^>]*>/).map { String($0.0) }.first { $0.contains("name=\"title\"") }
            #expect(title?.contains("aria-invalid=\"true\"") == true, "the title marked: \(title ?? "no title field")")
        }
    }
}
