import AdminDomain
import Foundation
import GRDB
import PushFakes
import TestSupport
import Testing

/// `admin-panel push test`, the real binary against the strict fake providers.
@Suite(.timeLimit(.minutes(20))) struct PushTestCommand {
    static let fcmToken = "fcm:token/with+odd=chars-900001"
    static let apnsToken = String(repeating: "0a1b2c3d", count: 8)

    /// The binary runs off the cooperative threads: the fake's handlers need them meanwhile.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await runPanel(arguments, environment: environment)
    }

    @Test func oneAuditedPushPerRunAndADeadTokenRecordedByItsHash() async throws {
        let server = try await FakeProviderServer.start()
        let credentials = try await TestCredentials.make(tokenURI: server.tokenURI)
        try await server.state.trust(credentials, tokenURI: server.tokenURI)
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer {
            temp.remove()
            credentials.remove()
            Task { await server.stop() }
        }
        // The test, not the panel, plays the app's backend here.
        try await DatabaseQueue(path: temp.path).write { db in
            let user = try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM users")!
            try db.execute(
                sql: """
                    INSERT INTO devices (
                      id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES
                      (900001, ?1, 'android', 'fcm', ?2, 'granted', '2026-01-01 00:00:00', '2026-11-01 00:00:00'),
                      (900002, ?1, 'ios', 'apns', ?3, 'granted', '2026-01-01 00:00:00', '2026-11-01 00:00:00'),
                      (900003, ?1, 'android', 'fcm', NULL, 'denied', '2026-01-01 00:00:00', '2026-11-01 00:00:00')
                    """, arguments: [user, Self.fcmToken, Self.apnsToken])
        }
        let before = try appTablesDigest(path: temp.path)
        let fcm = [
            "--db", temp.path, "--fcm-service-account", credentials.serviceAccountPath, "--fcm-base-url",
            server.baseURL,
        ]

        let accepted = try await run(["push", "test", "--device-id", "900001"] + fcm)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(
            accepted.stdout
                == "device #900001 (android via fcm, token •••900001): "
                + "accepted (provider's id projects/\(TestCredentials.projectID)/messages/1)\n"
        )
        #expect(!accepted.stdout.contains(Self.fcmToken))

        let dryRun = try await run(["push", "test", "--device-id", "900001", "--dry-run"] + fcm)
        #expect(dryRun.status == 0)
        #expect(dryRun.stdout.contains("fake_message_id"))

        await server.state.inject([.unregistered], forToken: Self.fcmToken)
        let dead = try await run(["push", "test", "--device-id", "900001"] + fcm)
        #expect(dead.status == 1)
        #expect(dead.stdout.hasSuffix("dead token: UNREGISTERED\n"))

        // APNs through the environment twins alone.
        let apnsEnvironment = [
            "APNS_KEY": credentials.apnsKeyPath, "APNS_KEY_ID": TestCredentials.apnsKeyID,
            "APNS_TEAM_ID": TestCredentials.apnsTeamID, "APNS_TOPIC": TestCredentials.apnsTopic,
            "APNS_BASE_URL": server.baseURL,
        ]
        let apns = try await run(
            ["push", "test", "--db", temp.path, "--device-id", "900002"], environment: apnsEnvironment)
        #expect(apns.status == 0, "\(apns.stderr)")
        #expect(apns.stdout.hasPrefix("device #900002 (ios via apns, token •••1b2c3d): accepted (provider's id "))

        // Refusals, each one sentence, and nothing sent or recorded for them.
        let refusals: [([String], String)] = [
            (
                ["--device-id", "900003"] + fcm,
                "error: device #900003 has no push token: the app has no permission to notify on it\n"
            ),
            (["--device-id", "999999"] + fcm, "error: no device #999999\n"),
            (
                ["--device-id", "900002"] + fcm,
                """
                error: device #900002 is registered with APNs, and no APNs key is configured (--apns-key, \
                --apns-key-id, --apns-team-id, --apns-topic)\n
                """
            ),
            (
                ["--db", temp.path, "--device-id", "900001", "--fcm-service-account", credentials.apnsKeyPath],
                "error: the FCM service account \"\(credentials.apnsKeyPath)\" is not a service-account JSON key file\n"
            ),
            (
                ["--db", temp.path, "--device-id", "900002", "--apns-sandbox", "--apns-base-url", server.baseURL],
                "error: give --apns-sandbox or --apns-base-url (\(server.baseURL)), not both\n"
            ),
        ]
        for (arguments, message) in refusals {
            let refused = try await run(["push", "test"] + arguments)
            #expect(refused.status == 1)
            #expect(refused.stderr == message)
        }

        let (audit, deadRows, tokenAnywhere) = try await DatabaseQueue(path: temp.path).read { db in
            (
                try String.fetchAll(
                    db,
                    sql:
                        """
                        SELECT actor_email || ' ' || target || ' ' || detail FROM panel_audit_log WHERE action = \
                        'push_test_sent' ORDER BY id
                        """
                ),
                try String.fetchAll(
                    db,
                    sql:
                        """
                        SELECT token_sha256 || ' ' || device_id || ' ' || provider || ' ' || reason FROM \
                        panel_dead_tokens
                        """
                ),
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE detail LIKE '%' || ? || '%'",
                    arguments: [Self.fcmToken])
            )
        }
        #expect(audit.count == 4)
        #expect(audit.allSatisfy { $0.hasPrefix("cli user:") })
        #expect(audit[2].hasSuffix("device #900001 via fcm: dead token: UNREGISTERED"))
        #expect(audit[1].contains("via fcm, dry run: accepted"))
        #expect(deadRows == ["\(DeadTokens.hash(Self.fcmToken)) 900001 fcm UNREGISTERED"])
        #expect(tokenAnywhere == 0)
        #expect(try appTablesDigest(path: temp.path) == before, "the app's tables are untouched")
        #expect(await server.state.breaches.isEmpty)
    }

    @Test func aGarbledCredentialStopsTheServerAtStartInOneLine() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let garbled = temp.directory.appendingPathComponent("key.json").path
        let key =
            #"{"type":"service_account","project_id":"p","client_email":"a@b","token_uri":"https://x/token","#
            + #""private_key":"nope"}"#
        try Data(key.utf8).write(to: URL(fileURLWithPath: garbled))
        let result = try await run(["serve", "--db", temp.path, "--port", "0", "--fcm-service-account", garbled])
        #expect(result.status == 1)
        #expect(result.stderr == "error: the FCM service account \"\(garbled)\" has no readable RSA private_key\n")
        let badSandbox = try await run(
            ["serve", "--db", temp.path, "--port", "0"], environment: ["APNS_SANDBOX": "maybe"])
        #expect(badSandbox.stderr == "error: APNS_SANDBOX is \"maybe\"; it must be 1 or 0\n")
    }
}
