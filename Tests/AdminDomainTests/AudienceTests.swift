import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// The audience's counts against the same rules worked out in Swift from the raw rows, on a
/// seeded database with hostile rows added for every exclusion.
@Suite(.timeLimit(.minutes(20))) struct AudienceCounting {
    static let now = TemporaryDatabase.seedNow

    struct Raw {
        struct User {
            let id: Int64, status: String, plan: String, lastActive: String?, created: String, items: Int,
                foodSoon: Bool, passportSoon: Bool
        }
        struct Device {
            let id: Int64, user: Int64, platform: String, provider: String, token: String?, permission: String
        }
        var users: [User] = []
        var devices: [Device] = []
        var settings: [Int64: (push: Int64, marketing: Int64)] = [:]
        var dead: Set<String> = []
        var capped: Set<Int64> = []
    }

    static func prepare() async throws -> (TemporaryDatabase, PanelDatabase) {
        let temp = try await TemporaryDatabase.seeded(users: 400, now: now)
        let database = try await PanelDatabase.open(path: temp.path)
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, status, plan, created_at, last_active_at) VALUES
                      (900001, 'suspended@x.test', 'x', 'suspended', 'free', '2026-01-01 00:00:00',
                        '2026-11-17 00:00:00'),
                      (900002, 'pushoff@x.test', 'x', 'active', 'free', '2026-01-01 00:00:00', '2026-11-17 00:00:00'),
                      (900003, 'nomarketing@x.test', 'x', 'active', 'premium', '2026-01-01 00:00:00',
                        '2026-11-17 00:00:00'),
                      (900004, 'odd@x.test', 'x', 'active', 'free', '2026-01-01 00:00:00', NULL),
                      (900005, 'capped@x.test', 'x', 'active', 'free', '2026-01-01 00:00:00', '2026-11-17 00:00:00'),
                      (900006, 'banned@x.test', 'x', 'banned', 'free', '2026-01-01 00:00:00', '2026-11-17 00:00:00');
                    INSERT INTO notification_settings (user_id, push_enabled, marketing_opt_in) VALUES
                      (900002, 0, 1), (900003, 1, 'no');
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES
                      (990001, 900001, 'ios', 'apns', 'aa01', 'granted', '2026-01-01', '2026-11-01'),
                      (990002, 900002, 'android', 'fcm', 'tok-2', 'granted', '2026-01-01', '2026-11-01'),
                      (990003, 900003, 'android', 'fcm', 'tok-3', 'granted', '2026-01-01', '2026-11-01'),
                      (990004, 900004, 'android', 'fcm', 'tok-4', 'denied', '2026-01-01', '2026-11-01'),
                      (990005, 900004, 'android', 'hms', 'tok-5', 'granted', '2026-01-01', '2026-11-01'),
                      (990006, 900004, 'harmonyos', 'fcm', 'tok-dead', 'granted', '2026-01-01', '2026-11-01'),
                      (990007, 900004, 'android', 'fcm', '', 'granted', '2026-01-01', '2026-11-01'),
                      (990008, 900005, 'ios', 'apns', 'bb08', 'granted', '2026-01-01', '2026-11-01'),
                      (990009, 900006, 'ios', 'apns', 'cc09', 'granted', '2026-01-01', '2026-11-01');
                    """)
        }
        // The panel's own rows: a dead token, and two campaign pushes this week for 900005.
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO panel_dead_tokens VALUES (?, 990006, 'fcm', 'UNREGISTERED', '2026-11-10 00:00:00')",
                arguments: [DeadTokens.hash("tok-dead")])
            try db.execute(
                sql: """
                    INSERT INTO panel_campaigns (id, title, body, ttl_seconds, segment, status, created_at) VALUES
                      (1, 'a', 'b', 60, '{}', 'finished', '2026-11-15 00:00:00'),
                      (2, 'a', 'b', 60, '{}', 'finished', '2026-11-16 00:00:00'),
                      (3, 'a', 'b', 60, '{}', 'finished', '2026-11-01 00:00:00');
                    INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at) VALUES
                      (1, 990008, 900005, 'accepted', '2026-11-15 00:00:00', '2026-11-15 00:00:00'),
                      (2, 990008, 900005, 'unknown', '2026-11-16 00:00:00', '2026-11-16 00:00:00'),
                      (3, 990001, 900001, 'accepted', '2026-11-01 00:00:00', '2026-11-01 00:00:00');
                    """)
        }
        return (temp, database)
    }

    static func raw(_ path: String) async throws -> Raw {
        try await DatabaseQueue(path: path).read { db in
            var raw = Raw()
            let today = "2026-11-18"
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT u.id, u.status, u.plan, u.last_active_at, u.created_at,
                      (SELECT COUNT(*) FROM food_items f WHERE f.user_id = u.id AND f.deleted_at IS NULL
                        AND f.consumed_at IS NULL)
                      + (SELECT COUNT(*) FROM documents o WHERE o.user_id = u.id AND o.deleted_at IS NULL),
                      EXISTS (SELECT 1 FROM food_items f WHERE f.user_id = u.id AND f.deleted_at IS NULL
                        AND f.consumed_at IS NULL
                              AND f.expiry_date >= '\(today)' AND f.expiry_date <= '2026-11-25'),
                      EXISTS (SELECT 1 FROM documents o WHERE o.user_id = u.id AND o.deleted_at IS NULL
                        AND o.doc_type = 'passport'
                              AND o.expiry_date >= '\(today)' AND o.expiry_date <= '2026-12-18')
                    FROM users u
                    """)
            {
                raw.users.append(
                    .init(
                        id: row[0], status: row[1], plan: row[2], lastActive: row[3], created: row[4], items: row[5],
                        foodSoon: row[6], passportSoon: row[7]))
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT id, user_id, platform, push_provider, push_token, push_permission FROM devices")
            {
                raw.devices.append(
                    .init(
                        id: row[0], user: row[1], platform: row[2], provider: row[3], token: row[4], permission: row[5])
                )
            }
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT user_id, CAST(push_enabled AS INTEGER), CAST(marketing_opt_in AS INTEGER) "
                    + "FROM notification_settings"
            ) {
                raw.settings[row[0]] = (row[1], row[2])
            }
            raw.dead = Set(try String.fetchAll(db, sql: "SELECT token_sha256 FROM panel_dead_tokens"))
            raw.capped = Set(
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT user_id FROM panel_deliveries
                          WHERE updated_at >= '\(SQLiteTime.string(now.addingTimeInterval(-7 * 86_400)))'
                          AND state IN ('accepted', 'sending', 'unknown')
                        GROUP BY user_id HAVING COUNT(DISTINCT campaign_id) >= 2
                        """))
            return raw
        }
    }

    /// The rules in Swift: the first reason that applies, else reachable.
    static func expected(_ raw: Raw, keepUser: (Raw.User) -> Bool, platform: String? = nil) -> AudienceCounts {
        var counts = AudienceCounts()
        let devicesByUser = Dictionary(
            grouping: raw.devices.filter { platform == nil || $0.platform == platform }, by: \.user)
        for user in raw.users where keepUser(user) {
            if let platform, !raw.devices.contains(where: { $0.user == user.id && $0.platform == platform }) {
                continue
            }
            let devices = devicesByUser[user.id] ?? []
            let settings = raw.settings[user.id]
            func userReason() -> Exclusion? {
                if user.status != "active" { return .accountClosed }
                if let settings, settings.push == 0 { return .pushOff }
                if let settings, settings.marketing == 0 { return .marketingOff }
                if devices.isEmpty { return .noDevice }
                return nil
            }
            if let reason = userReason() {
                if !devices.isEmpty { counts.excludedDevices[reason, default: 0] += devices.count }
                counts.excludedUsers[reason, default: 0] += 1
                continue
            }
            var reachable = false
            for device in devices {
                let reason: Exclusion? =
                    device.permission != "granted" || (device.token ?? "").isEmpty
                    ? .noPermission
                    : !["fcm", "apns"].contains(device.provider)
                        ? .unknownProvider
                        : raw.dead.contains(DeadTokens.hash(device.token ?? ""))
                            ? .deadToken
                            : raw.capped.contains(user.id) ? .frequencyCap : nil
                if let reason {
                    counts.excludedDevices[reason, default: 0] += 1
                } else {
                    reachable = true
                    counts.reachableDevices += 1
                    counts.devicesByGroup[.init(platform: device.platform, provider: device.provider), default: 0] += 1
                }
            }
            if reachable { counts.reachableUsers += 1 }
        }
        return counts
    }

    @Test func everySegmentCountsAsTheRulesSayAndTheLaunchFreezesExactlyTheReachable() async throws {
        let (temp, database) = try await Self.prepare()
        defer { temp.remove() }
        let raw = try await Self.raw(temp.path)
        let week = SQLiteTime.string(Self.now.addingTimeInterval(-7 * 86_400))
        let month = SQLiteTime.string(Self.now.addingTimeInterval(-30 * 86_400))
        let cases: [(String, CampaignSegment, (Raw.User) -> Bool, String?)] = [
            ("all", CampaignSegment(), { _ in true }, nil),
            ("premium", CampaignSegment(plan: .premium), { $0.plan == "premium" }, nil),
            ("free android", CampaignSegment(plan: .free, platform: .android), { $0.plan == "free" }, "android"),
            ("active", CampaignSegment(bucket: .active), { ($0.lastActive ?? "") >= week }, nil),
            ("inactive", CampaignSegment(bucket: .inactive), { $0.lastActive.map { $0 < month } ?? false }, nil),
            ("never", CampaignSegment(bucket: .never), { $0.lastActive == nil }, nil),
            ("near the limit", CampaignSegment(nearItemLimit: true), { $0.plan == "free" && $0.items >= 40 }, nil),
            ("food within 7 days", CampaignSegment(foodExpiringWithinDays: 7), { $0.foodSoon }, nil),
            (
                "passports within 30 days", CampaignSegment(documentsExpiringWithinDays: 30, documentType: .passport),
                { $0.passportSoon }, nil
            ),
            (
                "signed up in 2026", CampaignSegment(signedUpFrom: Day("2026-01-01"), signedUpTo: Day("2026-12-31")),
                { $0.created >= "2026-01-01" && $0.created < "2027-01-01" }, nil
            ),
        ]
        for (name, segment, keep, platform) in cases {
            let counted = try await Audience().count(segment, in: database, now: Self.now)
            var expected = Self.expected(raw, keepUser: keep, platform: platform)
            var got = counted
            got.excludedUsers = got.excludedUsers.filter {
                [.accountClosed, .pushOff, .marketingOff, .noDevice].contains($0.key)
            }
            expected.excludedUsers = expected.excludedUsers.filter {
                [.accountClosed, .pushOff, .marketingOff, .noDevice].contains($0.key)
            }
            #expect(got == expected, "\(name)")
        }
        // Every exclusion occurs in "all", so each rule was exercised; the global control group
        // is empty here (no share set) and has its own tests (`GlobalControlTests`).
        let all = try await Audience().count(CampaignSegment(), in: database, now: Self.now)
        #expect(
            Set(all.excludedDevices.keys).union([.noDevice, .providerNotConfigured, .globalControl])
                == Set(Exclusion.allCases),
            "\(all.excludedDevices)")
        // The last rule needs a server without one provider's credentials: APNs devices the
        // rules let through otherwise are left out for it, and the rest counted as before.
        let fcmOnly = try await Audience(providers: [.fcm]).count(CampaignSegment(), in: database, now: Self.now)
        #expect((fcmOnly.excludedDevices[.providerNotConfigured] ?? 0) > 0)
        #expect(
            fcmOnly.reachableDevices + (fcmOnly.excludedDevices[.providerNotConfigured] ?? 0) == all.reachableDevices
                + (all.excludedDevices[.deadToken] ?? 0) + (all.excludedDevices[.frequencyCap] ?? 0)
                - (fcmOnly.excludedDevices[.deadToken] ?? 0) - (fcmOnly.excludedDevices[.frequencyCap] ?? 0))

        let campaigns = Campaigns(database: database, usersPerChunk: 53)
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine, now: Self.now)
        let written = try await campaigns.beginAndFreeze(id, by: .commandLine, now: Self.now).deliveries
        // The reachable are queued; devices over the frequency cap are written as capped, so
        // that the campaign's page shows them, and are never sent.
        let states = try await database.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db, sql: "SELECT state, COUNT(*) FROM panel_deliveries WHERE campaign_id = ? GROUP BY state",
                    arguments: [id]
                ).map { (row: Row) -> (String, Int) in (row[0], row[1]) })
        }
        #expect(states == ["queued": all.reachableDevices, "capped": all.excludedDevices[.frequencyCap] ?? -1])
        #expect(written == all.reachableDevices + (all.excludedDevices[.frequencyCap] ?? 0))
    }
}

@Suite(.timeLimit(.minutes(20))) struct DeliveryDueTimes {
    /// Two users at 09:00 local in Lisbon and Tokyo, one with quiet hours over midnight, one
    /// whose timezone is not one (the default, UTC, is used).
    @Test func eachDeliveryIsDueAtTheRecipientsLocalTimeOutsideQuietHours() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, timezone, created_at, last_active_at) VALUES
                      (910001, 'lisbon@x.test', 'x', 'Europe/Lisbon', '2026-01-01 00:00:00', '2026-11-17 00:00:00'),
                      (910002, 'tokyo@x.test', 'x', 'Asia/Tokyo', '2026-01-01 00:00:00', '2026-11-17 00:00:00'),
                      (910003, 'mars@x.test', 'x', 'Mars/Olympus_Mons', '2026-01-01 00:00:00', '2026-11-17 00:00:00'),
                      (910004, 'night@x.test', 'x', 'Europe/Lisbon', '2026-01-01 00:00:00', '2026-11-17 00:00:00');
                    INSERT INTO notification_settings (user_id, quiet_start, quiet_end) VALUES
                      (910002, '08:30', '10:15'), (910004, '22:00', '07:00');
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES
                      (991001, 910001, 'android', 'fcm', 't1', 'granted', '2026-01-01', '2026-11-01'),
                      (991002, 910002, 'android', 'fcm', 't2', 'granted', '2026-01-01', '2026-11-01'),
                      (991003, 910003, 'android', 'fcm', 't3', 'granted', '2026-01-01', '2026-11-01'),
                      (991004, 910004, 'android', 'fcm', 't4', 'granted', '2026-01-01', '2026-11-01');
                    """)
        }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let segment = CampaignSegment(signedUpFrom: Day("2026-01-01"), signedUpTo: Day("2026-01-01"))
        let now = SendTimeTests.date("2026-11-20 10:00:00")
        func dueTimes(_ schedule: CampaignSchedule) async throws -> [Int64: String] {
            let id = try await campaigns.create(
                CampaignDraft(title: "t", body: "b", segment: segment), by: .commandLine, now: now)
            _ = try await campaigns.beginAndFreeze(id, schedule: schedule, by: .commandLine, now: now)
            return try await database.read { db in
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(
                        db,
                        sql:
                            "SELECT device_id, due_at FROM panel_deliveries "
                            + "WHERE campaign_id = ? AND device_id > 991000",
                        arguments: [id]
                    )
                    .map { (row: Row) -> (Int64, String) in (row[0], row[1]) })
            }
        }
        // 09:00 where each is: Lisbon tomorrow; Tokyo tomorrow 09:00 is in its quiet hours, so
        // 10:15 (01:15 UTC); Mars is not a timezone, so UTC, tomorrow 09:00.
        #expect(
            try await dueTimes(.localTime(LocalTime("09:00")!)) == [
                991001: "2026-11-21 09:00:00", 991002: "2026-11-21 01:15:00", 991003: "2026-11-21 09:00:00",
                991004: "2026-11-21 09:00:00",
            ])
        // At 23:00 UTC: the night owl's quiet hours move it to 07:00 the next morning.
        #expect(
            try await dueTimes(.at(SendTimeTests.date("2026-11-20 23:00:00"))) == [
                991001: "2026-11-20 23:00:00", 991002: "2026-11-20 23:00:00", 991003: "2026-11-20 23:00:00",
                991004: "2026-11-21 07:00:00",
            ])
    }
}

@Suite(.timeLimit(.minutes(20))) struct FrequencyCap {
    /// Two campaign pushes in the last seven days reach the cap of two; a push seven days
    /// and one second ago no longer counts. Failed and cancelled deliveries never count.
    @Test func theCapCountsCampaignsInTheLastSevenDaysToTheSecond() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, created_at, last_active_at)
                      VALUES (920001, 'cap@x.test', 'x', '2025-05-05 00:00:00', NULL);
                    INSERT INTO devices
                      (id, user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES (992001, 920001, 'ios', 'apns', 'ab', 'granted', '2026-01-01', '2026-11-01');
                    """)
        }
        let database = try await PanelDatabase.open(path: temp.path)
        let now = AudienceCounting.now
        let segment = CampaignSegment(signedUpFrom: Day("2025-05-05"), signedUpTo: Day("2025-05-05"))
        func capped(first: Date, firstState: String = "accepted") async throws -> Bool {
            try await database.write { db in
                try db.execute(sql: "DELETE FROM panel_deliveries; DELETE FROM panel_campaigns;")
                try db.execute(
                    sql: """
                        INSERT INTO panel_campaigns (id, title, body, ttl_seconds, segment, status, created_at) VALUES
                          (1, 'a', 'b', 60, '{}', 'finished', '2026-11-01 00:00:00'),
                          (2, 'a', 'b', 60, '{}', 'finished', '2026-11-01 00:00:00');
                        INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at) VALUES
                          (1, 992001, 920001, ?, '2026-11-01 00:00:00', ?),
                          (2, 992001, 920001, 'accepted', '2026-11-01 00:00:00', ?);
                        """,
                    arguments: [
                        firstState, SQLiteTime.string(first), SQLiteTime.string(now.addingTimeInterval(-86_400)),
                    ])
            }
            return try await Audience().count(segment, in: database, now: now).excludedDevices[.frequencyCap] == 1
        }
        #expect(try await capped(first: now.addingTimeInterval(-7 * 86_400)))
        #expect(try await !capped(first: now.addingTimeInterval(-7 * 86_400 - 1)))
        #expect(try await capped(first: now.addingTimeInterval(-3600), firstState: "unknown"), "it may have arrived")
        #expect(try await !capped(first: now.addingTimeInterval(-3600), firstState: "failed"))
        #expect(try await Audience(frequencyCap: 3).count(segment, in: database, now: now).reachableDevices == 1)
    }

    /// Everyone over the cap, counted over ranges of users of every size: each range's first
    /// and last users are capped like the others, none is counted twice or missed. The
    /// expectation is the same audience with a cap nobody reaches.
    @Test func everyUserOverTheCapIsCappedWhateverTheRangeTheyFallIn() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 60)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let now = AudienceCounting.now
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO panel_campaigns (id, title, body, ttl_seconds, segment, status, created_at) VALUES
                      (1, 'a', 'b', 60, '{}', 'finished', '2026-11-01 00:00:00'),
                      (2, 'a', 'b', 60, '{}', 'finished', '2026-11-01 00:00:00');
                    INSERT INTO panel_deliveries (campaign_id, device_id, user_id, state, due_at, updated_at)
                      SELECT c.id, d.id, d.user_id, 'accepted', '2026-11-01 00:00:00', ?
                      FROM devices d, panel_campaigns c;
                    """, arguments: [SQLiteTime.string(now.addingTimeInterval(-3600))])
        }
        let uncapped = try await Audience(frequencyCap: 3).preview(
            CampaignSegment(), schedule: .now, in: database, now: now, ranges: 1
        ).counts
        #expect(uncapped.reachableUsers > 10, "the seed has people to cap")
        for ranges in [1, 2, 7, 16, 60, 200] {
            let counts = try await Audience().preview(
                CampaignSegment(), schedule: .now, in: database, now: now, ranges: ranges
            ).counts
            #expect(counts.reachableDevices == 0, "\(ranges) ranges")
            #expect(counts.excludedDevices[.frequencyCap] == uncapped.reachableDevices, "\(ranges) ranges")
            #expect(counts.excludedUsers[.frequencyCap] == uncapped.reachableUsers, "\(ranges) ranges")
        }
    }
}
