import Foundation
import GRDB
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct AdminCommands {
    @Test func createListDisableAndResetFromTheCommandLine() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let db = ["--db", temp.path]
        #expect(
            try await runPanel(
                ["admin", "create", "--email", "first@example.com", "--role", "admin"] + db,
                input: "a long enough password\n"
            ).status == 0)
        #expect(
            try await runPanel(
                ["admin", "create", "--email", "help@example.com", "--role", "support"] + db, input: "short\n"
            ).status == 1)
        #expect(
            try await runPanel(
                ["admin", "create", "--email", "help@example.com", "--role", "support"] + db,
                input: "a long enough password\n"
            ).status == 0)

        let list = try await runPanel(["admin", "list"] + db)
        #expect(list.status == 0)
        #expect(
            list.stdout.split(separator: "\n").map { $0.split(separator: "\t").prefix(3).joined(separator: " ") }
                == ["first@example.com admin active", "help@example.com support active"])

        let lastAdmin = try await runPanel(["admin", "disable", "--email", "first@example.com"] + db)
        #expect(lastAdmin.status == 1)
        #expect(lastAdmin.stderr == "error: this is the last active admin: create or enable another admin first\n")
        #expect(try await runPanel(["admin", "disable", "--email", "help@example.com"] + db).status == 0)
        #expect(
            try await runPanel(
                ["admin", "reset-password", "--email", "first@example.com"] + db, input: "a new long password\n"
            ).status == 0)
        #expect(
            try await runPanel(
                ["admin", "reset-password", "--email", "nobody@example.com"] + db, input: "a new long password\n"
            ).stderr
                == "error: no staff account has the email nobody@example.com\n")

        // A lost phone: the key and codes go, and the account enrols again.
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO panel_two_factor (admin_id, secret, confirmed_at)
                    SELECT id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', '2026-01-01 00:00:00' FROM panel_admins
                    WHERE email = 'first@example.com'
                    """)
        }
        #expect(
            try await runPanel(["admin", "list"] + db).stdout.contains(
                "first@example.com\tadmin\tactive\ttwo-factor on"))
        let reset = try await runPanel(["admin", "reset-two-factor", "--email", "first@example.com"] + db)
        #expect(reset.status == 0)
        #expect(
            try await runPanel(["admin", "list"] + db).stdout.contains(
                "first@example.com\tadmin\tactive\ttwo-factor off"))
        #expect(try await runPanel(["admin", "reset-two-factor", "--email", "nobody@example.com"] + db).status == 1)

        let actions = try await DatabaseQueue(path: temp.path).read { db in
            try String.fetchAll(db, sql: "SELECT action FROM panel_audit_log WHERE actor_email = 'cli' ORDER BY id")
        }
        #expect(actions == ["admin_created", "admin_created", "admin_disabled", "password_reset", "two_factor_reset"])
    }
}

@Suite(.timeLimit(.minutes(20))) struct UnlockCommand {
    /// Counts as the throttle writes them: a kind, an email and an address, shown here as
    /// "pair:email|address", "address:…", "account:…".
    @Test func unlockLiftsTheChosenCountsFromTheCommandLineAndAuditsEach() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let db = ["--db", temp.path]
        // Opened once by the panel so that its tables exist.
        #expect(try await runPanel(["admin", "list"] + db).status == 0)
        let keys = [
            "pair:ann@example.com|10.0.0.1", "pair:bob@example.com|10.0.0.1", "address:10.0.0.1",
            "account:ann@example.com",
            "account:bob@example.com", "pair:bob@example.com|10.0.0.2", "address:10.0.0.2",
        ]
        try await DatabaseQueue(path: temp.path).write { db in
            for key in keys {
                let (kind, rest) = (String(key.prefix { $0 != ":" }), String(key.drop { $0 != ":" }.dropFirst()))
                let (email, address) =
                    switch kind {
                    case "pair": (String(rest.prefix { $0 != "|" }), String(rest.drop { $0 != "|" }.dropFirst()))
                    case "address": ("", rest)
                    default: (rest, "")
                    }
                try db.execute(
                    sql: """
                        INSERT INTO panel_login_throttle (kind, email, address, failures, last_failure_at, locked_until)
                        VALUES (?, ?, ?, 10, ?, ?)
                        """, arguments: [kind, email, address, "2099-01-01 00:00:00", "2099-01-01 00:15:00"])
            }
        }
        func remaining() async throws -> [String] {
            try await DatabaseQueue(path: temp.path).read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT CASE kind WHEN 'pair' THEN 'pair:' || email || '|' || address
                                         WHEN 'address' THEN 'address:' || address
                                         ELSE 'account:' || email END AS shown
                        FROM panel_login_throttle ORDER BY shown
                        """)
            }
        }
        #expect(
            try await runPanel(["admin", "unlock"] + db).status != 0, "one of --email, --address or --all is required")
        #expect(try await runPanel(["admin", "unlock", "--email", "ANN@example.com"] + db).status == 0)
        await #expect(
            try remaining() == [
                "account:bob@example.com", "address:10.0.0.1", "address:10.0.0.2",
                "pair:bob@example.com|10.0.0.1", "pair:bob@example.com|10.0.0.2",
            ])
        #expect(try await runPanel(["admin", "unlock", "--address", "10.0.0.1"] + db).status == 0)
        await #expect(
            try remaining() == ["account:bob@example.com", "address:10.0.0.2", "pair:bob@example.com|10.0.0.2"])
        let all = try await runPanel(["admin", "unlock", "--all"] + db)
        #expect(all.status == 0 && all.stdout.hasPrefix("lifted 3:"))
        await #expect(try remaining().isEmpty)
        let audited = try await DatabaseQueue(path: temp.path).read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM panel_audit_log WHERE action = 'sign_in_unlocked' AND actor_email = 'cli'")
        }
        #expect(audited == keys.count)
    }
}
