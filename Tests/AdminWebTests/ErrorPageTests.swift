import AdminDomain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// Error pages once lost the navigation and the sign-out button, and a missing user was
/// "There is no page at this address".
@Suite(.timeLimit(.minutes(20))) struct ErrorPagesForStaff {
    @Test func aSignedInPersonKeepsTheNavigationOnErrorPagesAndAMissingUserIsNamed() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support])
        defer { panel.remove() }
        try await panel.addStaff()
        try await panel.test { client in
            let support = try await panel.signIn(client, email: TestPanel.supportEmail)
            let forbidden = try await client.get("/admins", cookie: support)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.text.contains("Sign out") && forbidden.text.contains("href=\"/users\""))
            let missing = try await client.get("/users/99999999", cookie: support)
            #expect(missing.status == .notFound && missing.text.contains("No user #99999999."))
            #expect(missing.text.contains("Sign out"))
            let missingLog = try await client.get("/users/99999999/activity", cookie: support)
            #expect(missingLog.status == .notFound && missingLog.text.contains("No user #99999999."))
            let nowhere = try await client.get("/no/such/page", cookie: support)
            #expect(nowhere.status == .notFound && nowhere.text.contains("Sign out"))
            let anonymous = try await client.get("/no/such/page")
            #expect(anonymous.status == .notFound && !anonymous.text.contains("Sign out"))
        }
    }

    @Test func aSessionThatRanOutSaysSoOnTheSignInPage() async throws {
        let panel = try await TestPanel(areas: [.dashboard, .support])
        defer { panel.remove() }
        let admin = try #require(try await panel.areas.auth.admins.find(email: TestPanel.email))
        let token = try await panel.areas.auth.signIn.sessions.create(
            adminID: admin.id!, clientAddress: nil, userAgent: nil, now: Date().addingTimeInterval(-13 * 3600))
        try await panel.test { client in
            let response = try await client.get("/users?q=x", cookie: "panel_session=\(token)")
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("/login?ended=1&next="))
            let page = try await client.get(location)
            #expect(page.text.contains("Your session has ended"))
            #expect(page.text.contains("value=\"/users?q=x\""), "and it goes back where it was going")
            #expect(!(try await client.get("/login")).text.contains("Your session has ended"))
        }
    }
}
