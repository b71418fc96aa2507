@testable import AdminWeb
import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

/// Every action the audit log names is written by something a person can do, with when,
/// who, what and which target.
@Suite struct AuditCoverage {
    @Test func everyAuditActionIsWrittenByTheFlowThatCausesIt() async throws {
        let panel = try await TestPanel()
        defer { panel.remove() }
        let helpEmail = try await panel.addStaff()
        let helpID = try #require(try await panel.services.admins.find(email: helpEmail)?.id)
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            _ = try await client.postSigned("/admins/\(helpID)/role", [("role", "marketing")], session: admin)
            _ = try await client.postSigned("/admins/\(helpID)/disable", session: admin)
            _ = try await client.postSigned("/admins/\(helpID)/enable", session: admin)
            let help = try await panel.signIn(client, email: helpEmail)
            _ = try await client.postSigned("/logout", session: help)
            // Ten wrong passwords from one place lock that pair.
            for _ in 1...10 {
                _ = try await client.postLogin([("email", helpEmail), ("password", "wrong wrong wrong")])
                // Skip the exponential wait between tries (at most 64 s) instead of sleeping
                // through it; counts older than 15 minutes would be forgotten.
                let earlier = SQLiteTime.string(Date().addingTimeInterval(-70))
                try await panel.services.database.writer.write { db in
                    try db.execute(sql: "UPDATE panel_login_throttle SET last_failure_at = ? WHERE locked_until IS NULL",
                                   arguments: [earlier])
                }
            }
        }
        let rows = try await panel.services.database.reader.read { db in
            try Row.fetchAll(db, sql: "SELECT at, actor_email, action, target FROM panel_audit_log ORDER BY id")
        }
        func row(_ action: AuditAction) -> Row? { rows.first { $0["action"] == action.rawValue } }
        for action: AuditAction in [.roleChanged, .adminDisabled, .adminEnabled] {
            let found = try #require(row(action), "\(action)")
            #expect(found["actor_email"] == TestPanel.email && found["target"] == "admin:\(helpID)", "\(action)")
        }
        #expect(row(.signOut)?["actor_email"] == helpEmail)
        let locked = try #require(row(.signInLocked))
        #expect(locked["target"] == "pair:\(helpEmail)|unknown")
        #expect(rows.allSatisfy { SQLiteTime.date($0["at"]) != nil && ($0["action"] as String?).flatMap(AuditAction.init(rawValue:)) != nil })
    }
}
