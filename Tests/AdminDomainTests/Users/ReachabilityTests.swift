import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// The reachability verdict, rule by rule: each case a user made by hand in an app database
/// (a healthy user changed by a few statements), and the sentence and findings support must
/// read, written out here.
@Suite(.timeLimit(.minutes(20))) struct ReachabilityVerdicts {
    static let now = SQLiteTime.date("2026-11-18 12:00:00")!

    struct Case: CustomStringConvertible {
        let id: Int64
        let rule: String
        /// Run after the healthy user `id` is inserted; `:id` is bound to it.
        let change: [String]
        let sentence: String
        /// Every finding that is not `fine`, in order.
        let notFine: [String]
        /// Fine findings that must be there too.
        var fine: [String] = []
        var description: String { "#\(id) \(rule)" }
    }

    static let noReminders =
        "[note] No reminder was due in the last 30 days | reminders due in the last 30 days: 0 | #reminders"
    static let noCampaigns =
        "[note] No campaign push in the last 30 days | "
        + "none sent to this user's devices and none held out | #campaign-pushes"
    static let quiet = [noReminders, noCampaigns]
    static let everywhere = "Reminders and campaign pushes reach this user on 1 of 1 device."
    static let android = """
        INSERT INTO devices
          (id, user_id, platform, push_provider, push_token, push_permission, app_version, os_version,
           created_at, last_seen_at)
        VALUES
          (:id * 10 + 1, :id, 'android', 'fcm', 'tok-' || :id || '-and-654321', 'granted', '3.1.0', 'Android 14',
           '2026-01-01 00:00:00', '2026-11-16 12:00:00')
        """

    static func device(
        _ id: Int64, _ how: String, token: String = "•••abcdef, not known dead",
        seen: String = "2026-11-17 12:00:00 UTC"
    ) -> String {
        "Device #\(id) (ios, apns) \(how) "
            + "| permission \(how.contains("not asked") ? "unknown" : how.contains("denied") ? "denied" : "granted"); "
            + "token \(token); last seen \(seen); app 3.2.1; OS iOS 18.1 | #devices"
    }

    static let cases: [Case] = [
        Case(
            id: 1, rule: "healthy", change: [], sentence: everywhere, notFine: quiet,
            fine: [
                "[fine] Account active | status: active | #account",
                "[fine] Timezone Europe/Lisbon | timezone: Europe/Lisbon | #account",
                "[fine] Push turned on in the app | push_enabled: on | #settings",
                "[fine] Food reminders turned on | food_reminders: on | #settings",
                "[fine] Document reminders turned on | document_reminders: on | #settings",
                "[fine] Marketing consent given | marketing_opt_in: on | #settings",
                "[fine] Daily reminder time 09:00 (their time) | daily_time: 09:00 | #settings",
                "[fine] Reminders 30, 15, 7, 1 days before expiry | reminder_days: 30,15,7,1 | #settings",
                "[fine] No quiet hours | quiet_start and quiet_end: none | #settings",
                "[fine] " + device(10, "can get a push"),
            ]),
        Case(
            id: 2, rule: "suspended", change: ["UPDATE users SET status = 'suspended' WHERE id = :id"],
            sentence: "Reminders and campaign pushes reach none: the account is suspended.",
            notFine: ["[blocks] Account suspended: nothing is sent to it | status: suspended | #account"] + quiet),
        Case(
            id: 3, rule: "deleted", change: ["UPDATE users SET status = 'deleted' WHERE id = :id"],
            sentence: "Reminders and campaign pushes reach none: the account is deleted.",
            notFine: ["[blocks] Account deleted: nothing is sent to it | status: deleted | #account"] + quiet),
        Case(
            id: 4, rule: "push off", change: ["UPDATE notification_settings SET push_enabled = 0 WHERE user_id = :id"],
            sentence: "Reminders and campaign pushes reach none: push is turned off in the app.",
            notFine: [
                "[blocks] Push turned off in the app: "
                    + "no reminder and no campaign push is sent | push_enabled: off | #settings"
            ] + quiet),
        Case(
            id: 25, rule: "push off, yet reminders sent (the tryout's user 3)",
            change: [
                "UPDATE notification_settings SET push_enabled = 0 WHERE user_id = :id",
                "INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at) "
                    + "VALUES (:id, 'food', 1, 1, '2026-11-15 09:00:00', 'sent', '2026-11-15 09:00:10'), "
                    + "(:id, 'food', 2, 1, '2026-11-16 09:00:00', 'sent', '2026-11-16 09:00:10')",
            ], sentence: "Reminders and campaign pushes reach none: push is turned off in the app.",
            notFine: [
                "[blocks] Push turned off in the app: "
                    + "no reminder and no campaign push is sent | push_enabled: off | #settings",
                "[note] Push is off now, yet the backend sent 2 reminders of the last 30 days: "
                    + "push was turned off since, or the backend sends without looking | push_enabled: off; "
                    + "2 sent of 2 due of the last 30 days | #reminders",
                noCampaigns,
            ]),
        Case(
            id: 5, rule: "food reminders off",
            change: ["UPDATE notification_settings SET food_reminders = 0 WHERE user_id = :id"],
            sentence:
                "Food reminders reach none: food reminders are turned off; "
                + "document reminders and campaign pushes reach this user on 1 of 1 device.",
            notFine: ["[blocks] Food reminders turned off | food_reminders: off | #settings"] + quiet),
        Case(
            id: 6, rule: "both kinds off",
            change: ["UPDATE notification_settings SET food_reminders = 0, document_reminders = 0 WHERE user_id = :id"],
            sentence:
                "Reminders reach none: food and document reminders are turned off; "
                + "campaign pushes reach this user on 1 of 1 device.",
            notFine: [
                "[blocks] Food reminders turned off | food_reminders: off | #settings",
                "[blocks] Document reminders turned off | document_reminders: off | #settings",
            ] + quiet),
        Case(
            id: 24, rule: "document reminders off",
            change: ["UPDATE notification_settings SET document_reminders = 0 WHERE user_id = :id"],
            sentence:
                "Food reminders and campaign pushes reach this user on 1 of 1 device; document reminders reach none: "
                + "document reminders are turned off.",
            notFine: ["[blocks] Document reminders turned off | document_reminders: off | #settings"] + quiet),
        Case(
            id: 7, rule: "consent withdrawn, a second device denied",
            change: [
                "UPDATE notification_settings SET marketing_opt_in = 0 WHERE user_id = :id",
                android, "UPDATE devices SET push_permission = 'denied', push_token = NULL WHERE id = :id * 10 + 1",
            ],
            sentence:
                "Reminders reach this user on 1 of 2 devices; campaign pushes reach none: marketing consent withdrawn.",
            notFine: [
                "[blocks] Marketing consent withdrawn: no campaign push is sent | marketing_opt_in: off | #settings",
                "[blocks] Device #71 (android, fcm) cannot get a push: push permission denied; "
                    + "no push token | permission denied; token none; last seen 2026-11-16 12:00:00 UTC; app 3.1.0; "
                    + "OS Android 14 | #devices",
            ] + quiet),
        Case(
            id: 8, rule: "permission denied",
            change: ["UPDATE devices SET push_permission = 'denied', push_token = NULL WHERE user_id = :id"],
            sentence: "Reminders and campaign pushes reach none: permission denied on its one device.",
            notFine: [
                "[blocks] " + device(80, "cannot get a push: push permission denied; no push token", token: "none")
            ] + quiet),
        Case(
            id: 9, rule: "permission not asked, and a token a provider rejected",
            change: [
                "UPDATE devices SET push_permission = 'unknown', push_token = NULL WHERE user_id = :id", android,
                "INSERT INTO panel_dead_tokens (token_sha256, device_id, provider, reason, recorded_at) "
                    + "VALUES (:hash, 91, 'fcm', 'UNREGISTERED', '2026-11-10 08:00:00')",
            ],
            sentence:
                "Reminders and campaign pushes reach none: no device can get a push (permission not asked yet on 1, "
                + "token rejected by a provider on 1).",
            notFine: [
                "[blocks] "
                    + device(
                        90, "cannot get a push: push permission not asked yet (unknown); no push token", token: "none"),
                "[blocks] Device #91 (android, fcm) cannot get a push: "
                    + "its token was rejected by the provider on 2026-11-10 08:00:00 UTC (UNREGISTERED) "
                    + "| permission granted; token •••654321, rejected 2026-11-10 08:00:00 UTC; "
                    + "last seen 2026-11-16 12:00:00 UTC; app 3.1.0; OS Android 14 | #devices",
            ] + quiet),
        Case(
            id: 10, rule: "a second device stale",
            change: [android, "UPDATE devices SET last_seen_at = '2026-10-01 12:00:00' WHERE id = :id * 10 + 1"],
            sentence:
                "Reminders and campaign pushes reach this user on 1 of 2 devices (1 more may not: "
                + "not seen for over 30 days).",
            notFine: [
                "[may-not] Device #101 (android, fcm) may not get a push: not seen for 48 days (stale after 30, "
                    + "as FCM counts) | permission granted; token •••654321, not known dead; "
                    + "last seen 2026-10-01 12:00:00 UTC; app 3.1.0; OS Android 14 | #devices"
            ] + quiet),
        Case(
            id: 11, rule: "the only device stale",
            change: ["UPDATE devices SET last_seen_at = '2026-10-01 12:00:00' WHERE user_id = :id"],
            sentence:
                "Reminders and campaign pushes may not reach this user: "
                + "1 of 1 device could get a push but was not seen for over 30 days.",
            notFine: [
                "[may-not] "
                    + device(
                        110, "may not get a push: not seen for 48 days (stale after 30, as FCM counts)",
                        seen: "2026-10-01 12:00:00 UTC")
            ] + quiet),
        Case(
            id: 12, rule: "last seen in the future",
            change: ["UPDATE devices SET last_seen_at = '2027-01-01 00:00:00' WHERE user_id = :id"],
            sentence:
                "Reminders and campaign pushes may not reach this user: "
                + "1 of 1 device could get a push but was last seen in the future.",
            notFine: [
                "[may-not] "
                    + device(
                        120, "may not get a push: last seen “2027-01-01 00:00:00” is in the future: not trusted",
                        seen: "2027-01-01 00:00:00 UTC")
            ] + quiet),
        Case(
            id: 13, rule: "last seen unreadable",
            change: ["UPDATE devices SET last_seen_at = 'yesterday' WHERE user_id = :id"],
            sentence:
                "Reminders and campaign pushes may not reach this user: "
                + "1 of 1 device could get a push but was last seen at a time that does not read.",
            notFine: [
                "[may-not] "
                    + device(
                        130, "may not get a push: last seen “yesterday” does not read as a time: not trusted",
                        seen: "“yesterday”")
            ] + quiet),
        Case(
            id: 14, rule: "no device", change: ["DELETE FROM devices WHERE user_id = :id"],
            sentence: "Reminders and campaign pushes reach none: no device registered.",
            notFine: ["[blocks] No device registered | no row in devices | #devices"] + quiet),
        Case(
            id: 15, rule: "quiet hours over midnight cover the daily time",
            change: [
                "UPDATE notification_settings SET quiet_start = '22:00', quiet_end = '08:00', "
                    + "daily_time = '07:30' WHERE user_id = :id"
            ],
            sentence: everywhere,
            notFine: [
                "[may-not] Quiet hours 22:00 to 08:00 (over midnight) "
                    + "cover the daily reminder time 07:30 | quiet_start 22:00, quiet_end 08:00, "
                    + "daily_time 07:30 (their time): "
                    + "a reminder then may be held until 08:00 or arrive silently | #settings"
            ] + quiet),
        Case(
            id: 16, rule: "quiet hours that leave the daily time free",
            change: ["UPDATE notification_settings SET quiet_start = '12:00', quiet_end = '14:00' WHERE user_id = :id"],
            sentence: everywhere, notFine: quiet,
            fine: [
                "[fine] Quiet hours 12:00 to 14:00 leave the daily reminder time free | quiet_start 12:00, "
                    + "quiet_end 14:00, daily_time 09:00 (their time) | #settings"
            ]),
        Case(
            id: 17, rule: "timezone, daily time and reminder days that do not read",
            change: [
                "UPDATE users SET timezone = 'Mars/Olympus' WHERE id = :id",
                "UPDATE notification_settings SET daily_time = '7pm', reminder_days = 'often' WHERE user_id = :id",
            ], sentence: everywhere,
            notFine: [
                "[may-not] Timezone “Mars/Olympus” is not a timezone | timezone: “Mars/Olympus”. A guess, "
                    + "since the backend's code is not in view: it likely uses UTC, "
                    + "so reminders come at UTC times | #account",
                "[may-not] Daily reminder time “7pm” does not read as a time HH:MM | daily_time: “7pm”. A guess, "
                    + "since the backend's code is not in view: it likely falls back to its default, 09:00, "
                    + "or skips the daily reminder | #settings",
                "[may-not] Reminder days “often” do not read as a list of days | reminder_days: “often”. A guess, "
                    + "since the backend's code is not in view: it likely falls back to its default, 30, 15, "
                    + "7 and 1 days before, or schedules no reminder | #settings",
            ] + quiet),
        Case(
            id: 18, rule: "quiet hours that do not read",
            change: ["UPDATE notification_settings SET quiet_start = '25:99' WHERE user_id = :id"],
            sentence: everywhere,
            notFine: [
                "[note] Quiet hours do not read: the sender treats them as none | quiet_start “25:99”, "
                    + "quiet_end nothing | #settings"
            ] + quiet),
        Case(
            id: 19, rule: "reminders late, failed, cancelled, overdue, among hostile rows",
            change: [
                """
                INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at) VALUES
                  (:id, 'food', 1, 1, '2026-11-10 09:00:00', 'sent', '2026-11-10 09:02:00'),
                  (:id, 'food', 2, 1, '2026-11-11 09:00:00', 'sent', '2026-11-11 09:00:30'),
                  (:id, 'food', 3, 1, '2026-11-12 09:00:00', 'sent', '2026-11-12 09:01:00'),
                  (:id, 'food', 4, 1, '2026-11-13 09:00:00', 'sent', '2026-11-13 08:00:00'),
                  (:id, 'food', 5, 1, '2026-11-14 09:00:00', 'sent', NULL),
                  (:id, 'food', 6, 1, '2026-11-14 10:00:00', 'sent', 'soon'),
                  (:id, 'food', 7, 1, '2026-11-15 09:00:00', 'failed', NULL),
                  (:id, 'food', 8, 1, '2026-11-16 09:00:00', 'cancelled', NULL),
                  (:id, 'food', 9, 1, '2026-11-18 11:50:00', 'scheduled', NULL),
                  (:id, 'food', 10, 1, '2026-11-18 11:57:00', 'scheduled', NULL),
                  (:id, 'food', 11, 1, '2026-11-19 09:00:00', 'scheduled', NULL),
                  (:id, 'food', 12, 1, 1795000000, 'scheduled', NULL),
                  (:id, 'food', 13, 1, '2026-10-01 09:00:00', 'failed', NULL),
                  (:id, 'food', 14, 1, 'yesterday', 'scheduled', NULL)
                """
            ], sentence: everywhere,
            notFine: [
                "[may-not] 1 reminder of the last 30 days still scheduled over 5 minutes after its time (overdue): "
                    + "the backend has not sent it | the latest due 2026-11-18 11:50:00 UTC; "
                    + "6 sent of 10 due of the last 30 days | #reminders",
                "[may-not] 1 reminder of the last 30 days failed | the latest due 2026-11-15 09:00:00 UTC; "
                    + "6 sent of 10 due of the last 30 days | #reminders",
                "[may-not] 1 reminder of the last 30 days sent late (over 60 s after its time) "
                    + "| the latest due 2026-11-10 09:00:00 UTC; 6 sent of 10 due of the last 30 days | #reminders",
                "[may-not] 1 reminder of the last 30 days cancelled, "
                    + "never sent | the latest due 2026-11-16 09:00:00 UTC; "
                    + "6 sent of 10 due of the last 30 days | #reminders",
                noCampaigns,
            ]),
        Case(
            id: 20, rule: "every reminder on time",
            change: [
                "INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at) "
                    + "VALUES (:id, 'document', 1, 7, '2026-11-17 09:00:00', 'sent', '2026-11-17 09:00:59')"
            ], sentence: everywhere, notFine: [noCampaigns],
            fine: [
                "[fine] Every reminder of the last 30 days was sent on time | 1 sent of 1 due of the last 30 days; "
                    + "none late, failed, cancelled or overdue | #reminders"
            ]),
        Case(
            id: 21, rule: "campaign pushes held out, capped, excluded, dead, waiting for quiet hours, cancelled",
            change: [
                campaign(1, "Winter sale", launched: "2026-11-15 12:00:00"), campaign(2, "Fresh start"),
                campaign(3, nil), campaign(4, "Tips"),
                campaign(5, "Evening"), campaign(6, "Sent fine"), campaign(7, "Week 46"),
                campaign(8, "Old", launched: "2026-09-01 12:00:00"),
                "INSERT INTO panel_campaign_members (campaign_id, user_id, arm, platform) "
                    + "VALUES (1, :id, 'holdout', 'ios'), (8, :id, 'holdout', 'ios'), (6, :id, 'a', 'ios')",
                delivery(2, "capped", "frequency cap: 3 campaign pushes in the window", updated: "2026-11-16 12:00:05"),
                delivery(
                    3, "excluded", "no longer in the audience when due: push turned off", updated: "2026-11-17 12:00:00"
                ),
                delivery(4, "dead", "UNREGISTERED", updated: "2026-11-17 13:00:00"),
                delivery(
                    5, "queued", "put off to the end of the user's quiet hours", updated: "2026-11-18 11:00:00",
                    due: "2026-11-18 22:00:00"),
                delivery(6, "accepted", nil, updated: "2026-11-18 11:30:00"),
                delivery(7, "cancelled", nil, updated: "2026-11-12 10:00:00"),
            ], sentence: everywhere,
            notFine: [
                noReminders,
                "[note] Held out on purpose from campaign #1 “Winter sale”: its holdout group gets no push, "
                    + "so that the campaign's effect can be measured | launched 2026-11-15 12:00:00 UTC; "
                    + "a member of its holdout group | #campaign-pushes",
                "[note] Campaign #5 “Evening” waits to go to device #210: due 2026-11-18 22:00:00 UTC, "
                    + "the end of the user's quiet hours | state queued; "
                    + "put off to the end of the user's quiet hours; "
                    + "updated 2026-11-18 11:00:00 UTC | #campaign-pushes",
                "[may-not] Campaign #4 “Tips” not delivered to device #210: "
                    + "the provider rejected its token | state dead; UNREGISTERED; "
                    + "updated 2026-11-17 13:00:00 UTC | #campaign-pushes",
                "[may-not] Campaign #3 “Title 3” not sent to device #210: excluded when it fell due | state excluded; "
                    + "no longer in the audience when due: push turned off; "
                    + "updated 2026-11-17 12:00:00 UTC | #campaign-pushes",
                "[may-not] Campaign #2 “Fresh start” not sent to device #210: the frequency cap | state capped; "
                    + "frequency cap: 3 campaign pushes in the window; "
                    + "updated 2026-11-16 12:00:05 UTC | #campaign-pushes",
                "[may-not] Campaign #7 “Week 46” cancelled before it went to device #210 | state cancelled; "
                    + "updated 2026-11-12 10:00:00 UTC | #campaign-pushes",
            ]),
        Case(
            id: 22, rule: "held out and sent nothing: held out on purpose, not 'no campaign push'",
            change: [
                "INSERT INTO panel_campaign_members (campaign_id, user_id, arm, platform) "
                    + "VALUES (1, :id, 'holdout', 'ios')"
            ], sentence: everywhere,
            notFine: [
                noReminders,
                "[note] Held out on purpose from campaign #1 “Winter sale”: its holdout group gets no push, "
                    + "so that the campaign's effect can be measured | launched 2026-11-15 12:00:00 UTC; "
                    + "a member of its holdout group | #campaign-pushes",
            ]),
        Case(
            id: 23, rule: "no settings saved", change: ["DELETE FROM notification_settings WHERE user_id = :id"],
            sentence: everywhere, notFine: quiet,
            fine: [
                "[fine] No notification settings saved: the app's defaults apply | push, "
                    + "food and document reminders and marketing consent on; daily at 09:00; 30, 15, "
                    + "7 and 1 days before | #settings"
            ]),
        // Issue 46, finding 6: "(their time)" stood beside a timezone the profile said does not read.
        Case(
            id: 40, rule: "a daily time in a timezone that does not read",
            change: ["UPDATE users SET timezone = 'Mars/Olympus' WHERE id = :id"], sentence: everywhere,
            notFine: [
                "[may-not] Timezone “Mars/Olympus” is not a timezone | timezone: “Mars/Olympus”. A guess, "
                    + "since the backend's code is not in view: it likely uses UTC, "
                    + "so the daily reminder comes at 09:00 UTC, not 09:00 their time | #account"
            ] + quiet,
            fine: [
                "[fine] Daily reminder time 09:00 (their time; their stored timezone does not read) "
                    + "| daily_time: 09:00 | #settings"
            ]),
    ]

    static func campaign(_ id: Int, _ name: String?, launched: String = "2026-11-16 12:00:00") -> String {
        """
        INSERT OR IGNORE INTO panel_campaigns
          (id, name, title, body, ttl_seconds, segment, status, created_at, launched_at)
        VALUES (\(id), \(name.map { "'\($0)'" } ?? "NULL"), 'Title \(id)', 'Body', 86400, '{}', 'finished',
          '2026-11-01 00:00:00', '\(launched)')
        """
    }

    static func delivery(
        _ campaign: Int, _ state: String, _ detail: String?, updated: String, due: String = "2026-11-16 12:00:00"
    ) -> String {
        """
        INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, detail, updated_at)
        VALUES (\(campaign), :id * 10, :id, '\(state)', '\(due)',
          \(detail.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" } ?? "NULL"), '\(updated)')
        """
    }

    @Test func eachRuleGivesItsSentenceAndFindings() async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        let backend = try DatabaseQueue(path: temp.path)
        _ = try await backend.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try await backend.write { db in
            let (tables, indexes) = try AppSchema.statements()
            for statement in tables + indexes { try db.execute(sql: statement) }
        }
        let database = try await PanelDatabase.open(path: temp.path)
        // Campaigns first (cases share them), then each user.
        try await backend.write { db in
            for test in Self.cases.sorted(by: { $0.id < $1.id }) {
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, password_hash, status, timezone, created_at)
                          VALUES (:id, 'u' || :id || '@reach.test', 'x', 'active', 'Europe/Lisbon',
                          '2026-01-01 00:00:00');
                        INSERT INTO notification_settings (user_id) VALUES (:id);
                        INSERT INTO devices
                          (id, user_id, platform, push_provider, push_token, push_permission, app_version, os_version,
                           created_at, last_seen_at)
                        VALUES
                          (:id * 10, :id, 'ios', 'apns', 'tok-' || :id || '-ios-abcdef', 'granted', '3.2.1', 'iOS 18.1',
                           '2026-01-01 00:00:00', '2026-11-17 12:00:00');
                        """, arguments: ["id": test.id])
                for statement in test.change {
                    var arguments: [String: DatabaseValue] = ["id": test.id.databaseValue]
                    if statement.contains(":hash") {
                        arguments["hash"] = DeadTokens.hash("tok-\(test.id)-and-654321").databaseValue
                    }
                    try db.execute(sql: statement, arguments: StatementArguments(arguments))
                }
            }
        }
        for test in Self.cases {
            let profile = try #require(
                try await UserProfile.load(id: test.id, database: database, now: Self.now), "\(test)")
            let verdict = profile.reachability
            #expect(verdict.sentence == test.sentence, "\(test)")
            let notFine = verdict.findings.filter { $0.mark != .fine }.map(\.description)
            #expect(notFine == test.notFine, "\(test)")
            let all = verdict.findings.map(\.description)
            for fine in test.fine { #expect(all.contains(fine), "\(test): \(fine) in \(all)") }
        }
        // The healthy user's checklist is exactly its fine findings and the two notes.
        let healthy = try #require(try await UserProfile.load(id: 1, database: database, now: Self.now)).reachability
        #expect(healthy.findings.map(\.description) == Self.cases[0].fine + Self.quiet)
    }

    /// The verdict's reads go through indexes by user, never a scan: its own statements, explained.
    @Test func theVerdictsQueriesUseIndexes() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 40, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        for which in Reachability.EvidenceQuery.allCases {
            let query = Reachability.evidenceQuery(which, userID: 3, now: TemporaryDatabase.seedNow)
            let plan = try await database.read { db in try queryPlan(db, query) }
            #expect(!plan.isEmpty)
            assertNoTableScan(plan)
        }
    }
}
