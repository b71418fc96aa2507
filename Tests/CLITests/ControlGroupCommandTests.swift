import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 48: `admin-panel control-group show` and `set`, the binary run on a seeded database:
/// the same use case as the settings page, audited as the command line.
@Suite(.timeLimit(.minutes(20))) struct ControlGroupCommandTests {
    @Test func setPutsAShareInForceShowListsItAndABadShareChangesNothing() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20)
        defer { temp.remove() }
        _ = try await PanelDatabase.open(path: temp.path)
        let set = try await runPanel(["control-group", "set", "--db", temp.path, "7"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("the global control group is 7% of users from "), "\(set.stdout)")
        for bad in ["25", "seven", "7"] {
            let refused = try await runPanel(["control-group", "set", "--db", temp.path, bad])
            #expect(refused.status == 1 && refused.stderr.hasPrefix("error: nothing changed: "), "\(bad): \(refused)")
        }
        let shown = try await runPanel(["control-group", "show", "--db", temp.path])
        #expect(shown.status == 0)
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.first == "share in force: 7%" && lines.count == 2, "\(shown.stdout)")
        #expect(lines.last?.hasSuffix("UTC\t7%\tcli") == true, "\(shown.stdout)")
        let audit = try await DatabaseQueue(path: temp.path).read { db in
            try Row.fetchAll(
                db, sql: "SELECT actor_email, detail FROM panel_audit_log WHERE action = 'global_control_changed'"
            ).map { [$0["actor_email"] as String?, $0["detail"]] }
        }
        #expect(audit == [["cli", "share 0% → 7%"]])
    }
}
