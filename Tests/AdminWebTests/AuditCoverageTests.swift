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
@Suite(.timeLimit(.minutes(5))) struct AuditCoverage {
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
                try await panel.services.database.write { db in
                    try db.execute(sql: "UPDATE panel_login_throttle SET last_failure_at = ? WHERE locked_until IS NULL",
                                   arguments: [earlier])
                }
            }
        }
        struct Audited: Sendable { let at: String, actorEmail: String?, action: String, target: String? }
        let rows = try await panel.services.database.read { db in
            try Row.fetchAll(db, sql: "SELECT at, actor_email, action, target FROM panel_audit_log ORDER BY id")
                .map { Audited(at: $0["at"], actorEmail: $0["actor_email"], action: $0["action"], target: $0["target"]) }
        }
        func row(_ action: AuditAction) -> Audited? { rows.first { $0.action == action.rawValue } }
        for action: AuditAction in [.roleChanged, .adminDisabled, .adminEnabled] {
            let found = try #require(row(action), "\(action)")
            #expect(found.actorEmail == TestPanel.email && found.target == "staff:\(helpID)", "\(action)")
        }
        #expect(row(.signOut)?.actorEmail == helpEmail)
        let locked = try #require(row(.signInLocked))
        #expect(locked.target == "pair:\(helpEmail)|unknown")
        #expect(rows.allSatisfy { SQLiteTime.date($0.at) != nil && AuditAction(rawValue: $0.action) != nil })
    }
}
