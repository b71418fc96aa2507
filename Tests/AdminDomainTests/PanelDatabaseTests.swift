import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct OpeningTheDatabase {
    @Test func missingFileIsRefusedAndNotCreated() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        await #expect(throws: DatabaseOpenError.fileNotFound(path: temp.path)) {
            try await PanelDatabase.open(path: temp.path)
        }
        #expect(!FileManager.default.fileExists(atPath: temp.path))
    }

    @Test func directoryIsRefused() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        await #expect(throws: DatabaseOpenError.notAFile(path: temp.directory.path)) {
            try await PanelDatabase.open(path: temp.directory.path)
        }
    }

    @Test(arguments: [
        Data("hello, I am a text file\n".utf8), Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
    ])
    func fileOfAnotherKindIsRefusedUntouched(contents: Data) async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        try contents.write(to: URL(fileURLWithPath: temp.path))
        await #expect(throws: DatabaseOpenError.notSQLite(path: temp.path)) {
            try await PanelDatabase.open(path: temp.path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: temp.path)) == contents)
    }

    @Test func emptyFileHasNoAppTables() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        _ = FileManager.default.createFile(atPath: temp.path, contents: Data())
        await #expect(throws: DatabaseOpenError.missingAppTables(path: temp.path, missing: AppSchema.tableNames)) {
            try await PanelDatabase.open(path: temp.path)
        }
    }

    @Test func otherSQLiteDatabaseIsRefusedWithoutCreatingPanelTables() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "CREATE TABLE users (id INTEGER PRIMARY KEY); CREATE TABLE notes (body TEXT)")
        }
        await #expect(
            throws: DatabaseOpenError.missingAppTables(
                path: temp.path, missing: AppSchema.tableNames.filter { $0 != "users" })
        ) {
            try await PanelDatabase.open(path: temp.path)
        }
        let tables = try await DatabaseQueue(path: temp.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["notes", "users"])
    }

    @Test func errorsReadAsOneLine() {
        let errors: [DatabaseOpenError] = [
            .fileNotFound(path: "/x.sqlite"), .notAFile(path: "/tmp"), .notSQLite(path: "/etc/hosts"),
            .missingAppTables(path: "/y.sqlite", missing: ["users", "devices"]),
            .unreadable(path: "/z", reason: "permission denied"),
        ]
        for error in errors { #expect(!error.description.contains("\n")) }
    }
}

@Suite(.timeLimit(.minutes(20))) struct SharingTheDatabaseWithTheBackend {
    let temp: TemporaryDatabase

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 50)
    }

    @Test func panelTablesAreCreatedWithTheirOwnVersionTable() async throws {
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        _ = try await PanelDatabase.open(path: temp.path)  // a second start migrates nothing twice
        let (tables, versions, userVersion) = try await database.read { db in
            (
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' "
                        + "AND name LIKE 'panel\\_%' ESCAPE '\\' ORDER BY name"
                ),
                try Int.fetchAll(db, sql: "SELECT version FROM panel_schema_version"),
                try Int.fetchOne(db, sql: "PRAGMA user_version")
            )
        }
        #expect(
            tables == [
                "panel_admins", "panel_audit_log", "panel_audit_users", "panel_campaign_members",
                "panel_campaign_reports",
                "panel_campaign_variants",
                "panel_campaigns", "panel_consent_costs", "panel_consent_readings", "panel_dead_tokens",
                "panel_deliveries", "panel_delivery_counts", "panel_global_control", "panel_global_control_key",
                "panel_journey_entries", "panel_journeys",
                "panel_login_challenges", "panel_login_throttle", "panel_receipt_reader",
                "panel_recovery_codes", "panel_schema_version", "panel_sessions", "panel_test_users",
                "panel_timing_counts",
                "panel_two_factor", "panel_usual_hour_peers", "panel_usual_hour_state", "panel_usual_hours",
            ])
        #expect(versions == Array(1...21))
        #expect(userVersion == 0)
        #expect(try await database.read { try $0.tableExists("grdb_migrations") } == false)
    }

    /// Version 15 splits the throttle's text keys into columns: counts in force survive an
    /// upgrade, each under its kind, email and address (an email may hold '|').
    @Test func throttleCountsKeptAsTextAreCarriedIntoColumns() async throws {
        defer { temp.remove() }
        _ = try await PanelDatabase.open(path: temp.path)
        // Back to version 14's shape, with counts in it.
        let queue = try DatabaseQueue(path: temp.path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    -- before version 21 (what a push costs)
                    DROP TABLE panel_consent_readings; DROP TABLE panel_consent_costs;
                    DROP INDEX panel_deliveries_consent_due;
                    ALTER TABLE panel_deliveries DROP COLUMN consent_seen;
                    ALTER TABLE panel_deliveries DROP COLUMN consent_sent_at;
                    ALTER TABLE panel_deliveries DROP COLUMN consent_after;
                    DELETE FROM panel_schema_version WHERE version = 21;
                    -- before version 20 (the global control group)
                    DROP TABLE panel_global_control_key; DROP TABLE panel_global_control;
                    ALTER TABLE panel_campaigns DROP COLUMN control_users;
                    DELETE FROM panel_schema_version WHERE version = 20;
                    -- before version 19 (counts kept by triggers)
                    DROP TRIGGER panel_delivery_counts_insert; DROP TRIGGER panel_delivery_counts_update;
                    DROP TRIGGER panel_delivery_counts_delete; DROP TABLE panel_delivery_counts;
                    ALTER TABLE panel_campaigns DROP COLUMN counts_kept;
                    DELETE FROM panel_schema_version WHERE version = 19;
                    DROP TABLE panel_login_throttle;
                    CREATE TABLE panel_login_throttle (
                      key TEXT PRIMARY KEY, failures INTEGER NOT NULL,
                      last_failure_at TEXT NOT NULL, locked_until TEXT);
                    INSERT INTO panel_login_throttle VALUES
                      ('pair:ann@example.com|10.0.0.1', 3, '2026-11-26 10:00:00', NULL),
                      ('pair:odd|name@example.com|2001:db8::7', 10, '2026-11-26 10:01:00', '2026-11-26 10:16:00'),
                      ('address:10.0.0.1', 4, '2026-11-26 10:02:00', NULL),
                      ('account:ann@example.com', 5, '2026-11-26 10:03:00', NULL);
                    DROP INDEX panel_audit_log_actor;
                    DROP INDEX panel_audit_log_action;
                    DROP INDEX panel_audit_log_target;
                    CREATE INDEX panel_audit_log_actor ON panel_audit_log(actor_email COLLATE NOCASE, id);
                    CREATE INDEX panel_audit_log_action ON panel_audit_log(action, id);
                    CREATE INDEX panel_audit_log_target ON panel_audit_log(target, id);
                    DELETE FROM panel_schema_version WHERE version = 15;
                    -- and before version 17 (usual hour)
                    DROP TABLE panel_usual_hours; DROP TABLE panel_usual_hour_peers;
                    DROP TABLE panel_usual_hour_state; DROP TABLE panel_timing_counts;
                    ALTER TABLE panel_campaigns DROP COLUMN timing;
                    ALTER TABLE panel_campaigns DROP COLUMN timing_control_percent;
                    ALTER TABLE panel_campaign_members DROP COLUMN timing;
                    ALTER TABLE panel_campaign_members DROP COLUMN due_at;
                    ALTER TABLE panel_deliveries DROP COLUMN opened_at;
                    DELETE FROM panel_schema_version WHERE version = 17;
                    -- and before version 18 (counted looks)
                    DROP TABLE panel_audit_users;
                    DROP TRIGGER panel_audit_log_no_update;
                    ALTER TABLE panel_audit_log DROP COLUMN looks;
                    ALTER TABLE panel_audit_log DROP COLUMN last_at;
                    CREATE TRIGGER panel_audit_log_no_update BEFORE UPDATE ON panel_audit_log
                      BEGIN SELECT RAISE(ABORT, 'panel_audit_log is append-only'); END;
                    DELETE FROM panel_schema_version WHERE version = 18;
                    -- and before version 16 (journeys)
                    DROP TABLE panel_journey_entries; DROP TABLE panel_journeys;
                    DROP INDEX panel_deliveries_entry; ALTER TABLE panel_deliveries DROP COLUMN entry_id;
                    ALTER TABLE panel_campaigns DROP COLUMN kind;
                    DELETE FROM panel_schema_version WHERE version = 16;
                    """)
        }
        try queue.close()
        let database = try await PanelDatabase.open(path: temp.path)
        let rows = try await database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT kind, email, address, failures, locked_until FROM panel_login_throttle ORDER BY kind, email"
            )
            .map {
                "\($0["kind"] as String) "
                    + "[\($0["email"] as String)] [\($0["address"] as String)] \($0["failures"] as Int) "
                    + "\(($0["locked_until"] as String?) ?? "-")"
            }
        }
        #expect(
            rows == [
                "account [ann@example.com] [] 5 -", "address [] [10.0.0.1] 4 -",
                "pair [ann@example.com] [10.0.0.1] 3 -",
                "pair [odd|name@example.com] [2001:db8::7] 10 2026-11-26 10:16:00",
            ])
    }

    @Test func theReadConnectionCannotWriteAnAppTable() async throws {
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let before = try appTablesDigest(path: temp.path)
        for sql in [
            "INSERT INTO households (name, created_at) VALUES ('x', '2026-01-01 00:00:00')",
            "UPDATE users SET plan = 'premium'", "DELETE FROM food_items", "CREATE INDEX panel_x ON users(locale)",
        ] {
            await #expect(throws: DatabaseError.self) {
                try await database.read { db in try db.execute(sql: sql) }
            }
            await #expect(throws: DatabaseError.self) {
                try await database.readOutsideTransaction { db in try db.execute(sql: sql) }
            }
        }
        #expect(try appTablesDigest(path: temp.path) == before)
    }

    @Test func panelWritesWaitForTheBackendsWriteLock() async throws {
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let backend = try DatabaseQueue(path: temp.path)
        // The backend holds the write lock on a thread of its own (not a cooperative one) and
        // says when it has it and when it lets go.
        let (holding, holder) = AsyncStream.makeStream(of: Void.self)
        let released = Mutex<ContinuousClock.Instant?>(nil)
        let thread = Thread {
            do {
                try backend.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    try db.execute(sql: "UPDATE users SET last_active_at = last_active_at WHERE id = 1")
                    holder.yield()
                    Thread.sleep(forTimeInterval: 0.8)
                    released.withLock { $0 = .now }
                    try db.execute(sql: "COMMIT")
                }
            } catch {
                Issue.record("the backend's transaction failed: \(error)")
            }
            holder.finish()
        }
        thread.start()
        var events = holding.makeAsyncIterator()
        _ = await events.next()
        // Reads go on during the backend's write (WAL), and the panel's write waits instead of failing.
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM users") } == 50)
        try await AuditLog(database: database).append(
            AuditEntry(actor: nil, actorEmail: "test", clientAddress: nil, action: .signInFailed))
        let written = ContinuousClock.now
        let releasedAt = try #require(
            released.withLock { $0 }, "the write returned while the backend still held the lock")
        #expect(releasedAt < written)
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM panel_audit_log") } == 1)
        while await events.next() != nil {}
    }

    /// Issue 36: a look's audit row commits without waiting for the disk (SQLite's
    /// synchronous 1, NORMAL); every other write waits for it (2, FULL, SQLite's default).
    /// Both rows are there, read back by another connection.
    @Test func looksCommitWithoutWaitingForTheDiskAndChangesWaitForIt() async throws {
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let synced = try await database.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        let unsynced = try await database.writeWithoutWaitingForDisk { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(synced == 2 && unsynced == 1, "\(String(describing: synced)) \(String(describing: unsynced))")
        let log = AuditLog(database: database)
        try await log.appendLook(
            AuditEntry(
                actor: nil, actorEmail: "look@example.com", clientAddress: "127.0.0.1", action: .userViewed,
                target: "user:1"))
        try await log.append(
            AuditEntry(actor: nil, actorEmail: "change@example.com", clientAddress: "127.0.0.1", action: .signInFailed))
        let emails = try await DatabaseQueue(path: temp.path).read { db in
            try String.fetchAll(db, sql: "SELECT actor_email FROM panel_audit_log ORDER BY id")
        }
        #expect(emails.suffix(2) == ["look@example.com", "change@example.com"])
    }

    @Test func theAuditLogIsAppendOnly() async throws {
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        try await AuditLog(database: database).append(
            AuditEntry(actor: nil, actorEmail: "a@example.com", clientAddress: "127.0.0.1", action: .signInFailed))
        await #expect(throws: DatabaseError.self) {
            try await database.write { try $0.execute(sql: "UPDATE panel_audit_log SET action = 'x'") }
        }
        await #expect(throws: DatabaseError.self) {
            try await database.write { try $0.execute(sql: "DELETE FROM panel_audit_log") }
        }
    }
}
