import Foundation
import GRDB

/// App users a campaign's test send may go to: staff and friendly testers whose phones check
/// the message before the real send. Kept by admins and marketing, each change audited.
public struct TestUsers: Sendable {
    let database: PanelDatabase
    let audience: Audience
    /// Test sends a staff member may make in a minute.
    public let perMinute: Int

    public static let defaultPerMinute = 10

    public init(database: PanelDatabase, audience: Audience = Audience(), perMinute: Int = TestUsers.defaultPerMinute) {
        self.database = database
        self.audience = audience
        self.perMinute = perMinute
    }

    public struct Entry: Sendable, Equatable {
        public let userID: Int64
        public let email: String
        public let addedBy: String?
        public let addedAt: String
        /// Devices that could get a campaign push now.
        public let reachableDevices: Int
    }

    /// Every test user, by email; a user whose row is gone is left out.
    public func list() async throws -> [Entry] {
        let testAudience = uncapped
        let (from, arguments) = testAudience.from(CampaignSegment(), now: Date(), extra: [SQLCondition("u.id = t.user_id")])
        let reachable = "(SELECT COUNT(*) \(from) AND (\(testAudience.classification(now: Date()).sql)) = 'reachable')"
        return try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT t.user_id, CAST(x.email AS TEXT) AS email, a.email AS added_by_email, t.added_at, \(reachable) AS reachable
                FROM panel_test_users t JOIN users x ON x.id = t.user_id LEFT JOIN panel_admins a ON a.id = t.added_by
                ORDER BY x.email LIMIT 200
                """, arguments: StatementArguments(arguments)).map {
                Entry(userID: $0[PanelTestUser.Columns.userID], email: $0["email"] ?? "", addedBy: $0["added_by_email"],
                      addedAt: $0[PanelTestUser.Columns.addedAt], reachableDevices: $0["reachable"])
            }
        }
    }

    /// The campaign rules without the frequency cap, which is no reason to hold back a test push.
    private var uncapped: Audience {
        var uncapped = audience
        uncapped.frequencyCap = Int.max
        return uncapped
    }

    /// Adds the app user with this email (any case). Refused with a sentence when none has it.
    public func add(email: String, by actor: AuditActor, now: Date = Date()) async throws -> Int64 {
        let typed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else { throw CampaignError("type the email of an app user") }
        return try await database.write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE email = ? COLLATE NOCASE", arguments: [String(typed.prefix(320))]) else {
                throw CampaignError("no app user has the email \(typed.prefix(320)): nobody was added")
            }
            guard try !PanelTestUser.exists(db, key: id) else { throw CampaignError("\(typed.prefix(320)) is a test user already") }
            try PanelTestUser(userID: id, addedBy: actor.identity?.adminID, addedAt: SQLiteTime.string(now)).insert(db)
            try AuditLog.insert(actor.entry(.testUserAdded, target: "user:\(id)", detail: nil), now: now, in: db)
            return id
        }
    }

    public func remove(userID: Int64, by actor: AuditActor, now: Date = Date()) async throws {
        try await database.write { db in
            guard try PanelTestUser.deleteOne(db, key: userID) else { throw CampaignError("user #\(userID) is not a test user") }
            try AuditLog.insert(actor.entry(.testUserRemoved, target: "user:\(userID)", detail: nil), now: now, in: db)
        }
    }

    /// Checks every rule of a test send and returns the devices it goes to, or throws the
    /// sentence that refuses it: only a test user, only from a campaign that has not ended,
    /// only devices that could get a campaign push, at most `perMinute` a minute per staff
    /// member. The check and its audit row (sent or refused) are one transaction, so two
    /// sends at once cannot both take the last place in the minute. Each device's outcome
    /// is audited after, by `PushTestLog.record`.
    public func devicesForTestSend(campaign: CampaignRecord, userID: Int64, by actor: AuditActor, now: Date = Date()) async throws -> [PushDevice] {
        let minuteAgo = SQLiteTime.string(now.addingTimeInterval(-60))
        let testAudience = uncapped, perMinute = self.perMinute
        let (from, arguments) = testAudience.from(CampaignSegment(), now: now, extra: [SQLCondition("u.id = :testUser", ["testUser": userID])])
        let sql = "SELECT d.id \(from) AND (\(testAudience.classification(now: now).sql)) = 'reachable' ORDER BY d.id LIMIT 20"
        let (refusal, devices, limited) = try await database.write { db -> (String?, [PushDevice], Bool) in
            var limited = false
            func decide() throws -> (String?, [PushDevice]) {
                let status = try Stored<CampaignStatus>.fetchOne(db, sql: "SELECT status FROM panel_campaigns WHERE id = ? AND deleted_at IS NULL", arguments: [campaign.id])
                guard let status else { return ("there is no campaign #\(campaign.id)", []) }
                if status.known?.isEnded ?? true {
                    return ("campaign #\(campaign.id) is \(status): test sends are for campaigns still to come", [])
                }
                guard try PanelTestUser.exists(db, key: userID) else {
                    return ("that user is not on the test users list", [])
                }
                if let admin = actor.identity?.adminID {
                    let recent = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM panel_audit_log INDEXED BY panel_audit_log_admin WHERE admin_id = ? AND at >= ? AND action = ?
                        """, arguments: [admin, minuteAgo, AuditAction.campaignTestSent.rawValue]) ?? 0
                    if recent >= perMinute {
                        limited = true
                        return ("you have made \(perMinute) test sends in the last minute; wait a minute and try again", [])
                    }
                }
                let ids = try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
                let devices = try ids.compactMap { try PushDevice.fetch(id: $0, in: db) }
                if devices.isEmpty {
                    return ("the test user has no device that could get a campaign push: the account must be active, push and campaign "
                            + "pushes on, and a device must have permission and a token no provider called dead", [])
                }
                return (nil, devices)
            }
            let (refusal, devices) = try decide()
            let detail = refusal.map { "campaign #\(campaign.id): \($0)" }
                ?? "campaign #\(campaign.id) to devices " + devices.map { "#\($0.id)" }.joined(separator: " ")
            try AuditLog.insert(actor.entry(refusal == nil ? .campaignTestSent : .campaignTestRefused, target: "user:\(userID)", detail: detail),
                                now: now, in: db)
            return (refusal, devices, limited)
        }
        if let refusal { throw CampaignError(refusal, isRateLimit: limited) }
        return devices
    }
}
