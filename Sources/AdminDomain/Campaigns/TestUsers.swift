import Foundation
import GRDB

/// App users a campaign's test send may go to: staff and friendly testers whose phones check
/// the message before the real send. Kept by admins and marketing, each change audited.
/// Marketing adds only emails in the configured domains; admins add any app user.
public struct TestUsers: Sendable {
    let database: PanelDatabase
    let audience: Audience
    /// Test sends a staff member may make in a minute.
    public let perMinute: Int
    /// Test sends one test user may get in 24 hours, from all staff together.
    public let perDay: Int
    /// The domains marketing may add test users from; none: only admins add them.
    public let domains: TestUserDomains
    /// For test users whose timezone is not one, when their quiet hours are read.
    let defaultTimeZone: String

    public static let defaultPerMinute = 10
    public static let defaultPerDay = 10

    public init(
        database: PanelDatabase, audience: Audience = Audience(), perMinute: Int = TestUsers.defaultPerMinute,
        perDay: Int = TestUsers.defaultPerDay, domains: TestUserDomains = .none, defaultTimeZone: String = "UTC"
    ) {
        self.database = database
        self.audience = audience
        self.perMinute = perMinute
        self.perDay = perDay
        self.domains = domains
        self.defaultTimeZone = defaultTimeZone
    }

    public struct Entry: Sendable, Equatable {
        public let userID: Int64
        public let email: String
        public let addedBy: String?
        public let addedAt: PanelTime
        /// Devices that could get a campaign push now.
        public let reachableDevices: Int
    }

    /// Every test user, by email; a user whose row is gone is left out.
    public func list() async throws -> [Entry] {
        let testAudience = uncapped
        let from = testAudience.from(CampaignSegment(), now: Date(), extra: [SQLCondition("u.id = t.user_id")])
        let reachable: SQL =
            "(SELECT COUNT(*) \(from) AND (\(testAudience.classification(now: Date(), withControl: false))) = 'reachable')"
        return try await database.read { db in
            try Row.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT t.user_id, CAST(x.email AS TEXT) AS email, a.email AS added_by_email, t.added_at,
                               \(reachable) AS reachable
                        FROM panel_test_users t
                        JOIN users x ON x.id = t.user_id
                        LEFT JOIN panel_admins a ON a.id = t.added_by
                        ORDER BY x.email LIMIT 200
                        """)
            ).map {
                Entry(
                    userID: $0[PanelTestUser.Columns.userID], email: $0["email"] ?? "", addedBy: $0["added_by_email"],
                    addedAt: try $0.decode(forColumn: PanelTestUser.Columns.addedAt), reachableDevices: $0["reachable"])
            }
        }
    }

    /// The campaign rules without the frequency cap, which is no reason to hold back a test push.
    private var uncapped: Audience {
        var uncapped = audience
        uncapped.frequencyCap = Int.max
        return uncapped
    }

    /// Whether this actor may add any app user, not only emails in `domains`: an admin, or
    /// the command line (whoever runs it can read the database anyway).
    public static func addsAnyone(_ actor: AuditActor) -> Bool {
        actor.identity.map { $0.role == .admin } ?? true
    }

    /// Adds the app user with this email (any case; pasted as `Name <email>` or `mailto:email`,
    /// the address inside, as the user search reads it). Refused with a sentence, and audited as
    /// `test_user_refused`, when the actor may not add that email or no app user has it.
    /// Marketing's add of an email outside the domains gets the same sentence whether it has
    /// an account or not: marketing learns nothing about customers from it (the audit row,
    /// which only admins read, names the account).
    public func add(email: String, by actor: AuditActor, now: Date = Date()) async throws -> Int64 {
        let trimmed = String(email.trimmingCharacters(in: .whitespacesAndNewlines).prefix(320))
        // What a ticket holds (`Name <address>`, `mailto:…`, quotes) is the address inside, as
        // the user search reads it.
        let typed = PastedAddress.address(in: trimmed) ?? trimmed
        let anyone = Self.addsAnyone(actor)
        let domains = self.domains
        let outcome = try await database.write { db -> Result<Int64, CampaignError> in
            let id =
                try typed.isEmpty
                ? nil
                : Int64.fetchOne(db, sql: "SELECT id FROM users WHERE email = ? COLLATE NOCASE", arguments: [typed])
            var refusal: String?
            if typed.isEmpty {
                refusal = "type the email of an app user"
            } else if !anyone, domains.isEmpty {
                refusal = "only an admin may add test users, as no test-user domain is configured: nobody was added"
            } else if !anyone, !domains.contains(email: typed) {
                refusal =
                    "marketing may add only emails at \(domains.sentence) "
                    + "(an admin may add any app user): nobody was added"
            } else if let id {
                if try PanelTestUser.exists(db, key: id) { refusal = "\(typed) is a test user already" }
            } else {
                refusal = "no app user has the email \(typed): nobody was added"
            }
            // The refusal's row names the user found, for the admins who read the log; the page says
            // no more than the sentence.
            guard let id, refusal == nil else {
                let sentence = refusal ?? ""
                try AuditLog.insert(
                    actor.entry(
                        .testUserRefused, target: id.map { "user:\($0)" },
                        detail: "email \(typed.prefix(200)): \(sentence)"), now: now, in: db)
                return .failure(CampaignError(sentence))
            }
            try PanelTestUser(userID: id, addedBy: actor.identity?.adminID, addedAt: PanelTime(now)).insert(db)
            try AuditLog.insert(actor.entry(.testUserAdded, target: "user:\(id)", detail: nil), now: now, in: db)
            return .success(id)
        }
        return try outcome.get()
    }

    public func remove(userID: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await database.write { db in
            guard try PanelTestUser.deleteOne(db, key: userID) else {
                throw CampaignError("user #\(userID) is not a test user")
            }
            try AuditLog.insert(actor.entry(.testUserRemoved, target: "user:\(userID)", detail: nil), now: now, in: db)
        }
    }

    /// Checks every rule of a test send and returns the devices it goes to, or throws the
    /// sentence that refuses it: only a test user, only from a campaign that has not ended,
    /// at most `perMinute` a minute per staff member and `perDay` in 24 hours per test user
    /// (from all staff, counted from the audit log's `campaign_test_sent` rows on one index),
    /// never in the test user's quiet hours, only to devices that could get a campaign push.
    /// The check and its audit row (sent or refused) are one transaction, so two sends at
    /// once cannot both take the last place. Each device's outcome is audited after, by
    /// `PushTestLog.record`.
    public func devicesForTestSend(
        campaign: CampaignRecord, variant: MessageVariant = .a, userID: Int64, by actor: AuditActor,
        now: Date = Date()
    ) async throws -> [PushDevice] {
        let minuteAgo = SQLiteTime.string(now.addingTimeInterval(-60))
        let dayAgo = SQLiteTime.string(now.addingTimeInterval(-86_400))
        let testAudience = uncapped
        let perMinute = self.perMinute
        let perDay = self.perDay
        let defaultZone = defaultTimeZone
        let from = testAudience.from(
            CampaignSegment(), now: now, extra: [SQLCondition("u.id = :testUser", ["testUser": userID])])
        let sql: SQL =
            "SELECT d.id \(from) AND (\(testAudience.classification(now: now, withControl: false))) = 'reachable' ORDER BY d.id LIMIT 20"
        let (refusal, devices, limited) = try await database.write { db -> (String?, [PushDevice], Bool) in
            var limited = false
            func decide() throws -> (String?, [PushDevice]) {
                let status = try Stored<CampaignStatus>.fetchOne(
                    db, sql: "SELECT status FROM panel_campaigns WHERE id = ? AND deleted_at IS NULL",
                    arguments: [campaign.id])
                guard let status else { return ("there is no campaign #\(campaign.id)", []) }
                if status.known?.isEnded ?? true {
                    return ("campaign #\(campaign.id) is \(status): test sends are for campaigns still to come", [])
                }
                guard try PanelTestUser.exists(db, key: userID) else {
                    return ("that user is not on the test users list", [])
                }
                if let admin = actor.identity?.adminID {
                    let recent =
                        try Int.fetchOne(
                            db,
                            sql: """
                                SELECT COUNT(*) FROM panel_audit_log INDEXED BY panel_audit_log_admin
                                WHERE admin_id = ? AND at >= ? AND action = ?
                                """, arguments: [admin, minuteAgo, AuditAction.campaignTestSent.rawValue]) ?? 0
                    if recent >= perMinute {
                        limited = true
                        return (
                            "you have made \(perMinute) test sends in the last minute; wait a minute and try again", []
                        )
                    }
                }
                // The last `perDay` sends to this user in 24 hours, newest first: the oldest of them
                // says when a place frees.
                let sent = try String.fetchAll(
                    db,
                    sql: """
                        SELECT at FROM panel_audit_log INDEXED BY panel_audit_log_test_sends
                        WHERE target = ? AND action = ? AND at >= ?
                        ORDER BY at DESC LIMIT ?
                        """, arguments: ["user:\(userID)", AuditAction.campaignTestSent.rawValue, dayAgo, perDay])
                if sent.count >= perDay {
                    limited = true
                    let next = (sent.last.flatMap(SQLiteTime.date) ?? now).addingTimeInterval(86_400)
                    return (
                        "this test user has had \(perDay) test sends in the last 24 hours, from all staff together; "
                            + "the next may go at \(SQLiteTime.string(next).prefix(16)) UTC", []
                    )
                }
                if let sentence = try Self.inQuietHours(userID: userID, now: now, defaultZone: defaultZone, in: db) {
                    return (sentence, [])
                }
                let ids = try Int64.fetchAll(db, SQLRequest(literal: sql))
                let devices = try ids.compactMap { try PushDevice.fetch(id: $0, in: db) }
                if devices.isEmpty {
                    return (
                        "the test user has no device that could get a campaign push: "
                            + "the account must be active, push and campaign pushes on, "
                            + "and a device must have permission and a token no provider called dead", []
                    )
                }
                return (nil, devices)
            }
            let (refusal, devices) = try decide()
            let detail =
                refusal.map { "campaign #\(campaign.id): \($0)" }
                ?? "campaign #\(campaign.id) variant \(variant.letter) to devices "
                + devices.map { "#\($0.id)" }.joined(separator: " ")
            try AuditLog.insert(
                actor.entry(
                    refusal == nil ? .campaignTestSent : .campaignTestRefused, target: "user:\(userID)",
                    detail: detail),
                now: now, in: db)
            return (refusal, devices, limited)
        }
        if let refusal { throw CampaignError(refusal, isRateLimit: limited) }
        return devices
    }

    /// The sentence refusing a test push now, when `now` falls in the user's quiet hours (read
    /// as the sender reads them: their timezone, or `defaultZone` when it is not one), saying
    /// when they end; nil outside them.
    static func inQuietHours(userID: Int64, now: Date, defaultZone: String, in db: Database) throws -> String? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT u.timezone, s.quiet_start, s.quiet_end
                    FROM users u LEFT JOIN notification_settings s ON s.user_id = u.id
                    WHERE u.id = ?
                    """, arguments: [userID]),
            let quiet = QuietHours(start: row["quiet_start"], end: row["quiet_end"]).quietPeriod
        else { return nil }
        let named = String.fromDatabaseValue(row["timezone"]) ?? ""
        let zone = UserCalendar.zone(named: named) ?? TimeZone(identifier: defaultZone) ?? TimeZone(secondsFromGMT: 0)!
        let end = SendTime.outsideQuietHours(now, start: quiet.start, end: quiet.end, in: zone)
        guard end > now else { return nil }
        return
            "it is the test user's quiet hours (\(quiet.start) to \(quiet.end), \(zone.identifier)); "
            + "they end at \(quiet.end) their time, "
            + "\(SQLiteTime.string(end).prefix(16)) UTC: send the test then"
    }
}
