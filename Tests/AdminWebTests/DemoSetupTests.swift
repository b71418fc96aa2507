import AdminDomain
import Foundation
import PanelDemo
import TestSupport
import Testing

@testable import AdminWeb

@Test func demoSetupCreatesTheDatabaseAndOneAdminOnce() async throws {
    let temp = try TemporaryDatabase()
    defer { temp.remove() }
    let configuration = PanelConfiguration(databasePath: temp.path, scrypt: fastScryptForTests)
    let first = try await DemoSetup.prepare(configuration: configuration, users: 30)
    #expect(first.seedReport?.rowsPerTable.first { $0.table == "users" }?.rows == 30)
    let password = try #require(first.adminPassword)
    #expect(password.count == 24)
    let signIn = try await first.areas.auth.signIn.signIn(
        email: DemoSetup.adminEmail, password: password,
        clientAddress: nil, userAgent: nil)
    guard case .signedIn = signIn else {
        Issue.record("the printed password does not sign in")
        return
    }
    // One account for each other role, signing in with its printed password and no second factor.
    #expect(first.rolePasswords.map(\.role) == [.marketing, .support])
    for account in first.rolePasswords {
        let result = try await first.areas.auth.signIn.signIn(
            email: account.email, password: account.password, clientAddress: nil, userAgent: nil)
        guard case .signedIn(_, let identity) = result else {
            Issue.record("\(account.email) does not sign in")
            continue
        }
        #expect(identity.role == account.role)
    }

    // The demo's journeys, one of each trigger. No provider is configured here, so none can be
    // activated: each stays a draft, with the sentence that says why.
    let journeys = try await first.areas.journeys.journeys.list()
    #expect(
        Set(journeys.compactMap { $0.rules?.trigger.stored }) == ["inactive_days", "first_days", "subscription_ending"])
    #expect(journeys.count == 3 && journeys.allSatisfy { $0.status == .draft })
    #expect(first.journeys?.active == [])
    #expect(first.journeys?.drafts.count == 3)
    #expect(
        first.journeys?.drafts.allSatisfy { $0.contains("cannot be activated") } == true,
        "\(first.journeys?.drafts ?? [])")

    let second = try await DemoSetup.prepare(configuration: configuration, users: 30)
    #expect(second.journeys == nil, "made once")
    #expect(try await second.areas.journeys.journeys.list().count == 3)
    #expect(second.seedReport == nil)
    #expect(second.adminPassword == nil)
    #expect(second.rolePasswords.isEmpty)
}
