@testable import AdminWeb
import AdminDomain
import PanelDemo
import Foundation
import Testing
import TestSupport

@Test func demoSetupCreatesTheDatabaseAndOneAdminOnce() async throws {
    let temp = try TemporaryDatabase()
    defer { temp.remove() }
    let configuration = PanelConfiguration(databasePath: temp.path, scrypt: fastScryptForTests)
    let first = try await DemoSetup.prepare(configuration: configuration, users: 30)
    #expect(first.seedReport?.rowsPerTable.first { $0.table == "users" }?.rows == 30)
    let password = try #require(first.adminPassword)
    #expect(password.count == 20)
    let signIn = try await first.services.signIn.signIn(email: DemoSetup.adminEmail, password: password,
                                                        clientAddress: nil, userAgent: nil)
    guard case .signedIn = signIn else { Issue.record("the printed password does not sign in"); return }
    // One account for each other role, signing in with its printed password and no second factor.
    #expect(first.rolePasswords.map(\.role) == [.marketing, .support])
    for account in first.rolePasswords {
        let result = try await first.services.signIn.signIn(email: account.email, password: account.password, clientAddress: nil, userAgent: nil)
        guard case .signedIn(_, let identity) = result else { Issue.record("\(account.email) does not sign in"); continue }
        #expect(identity.role == account.role)
    }

    let second = try await DemoSetup.prepare(configuration: configuration, users: 30)
    #expect(second.seedReport == nil)
    #expect(second.adminPassword == nil)
    #expect(second.rolePasswords.isEmpty)
}
