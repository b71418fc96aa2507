import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// Issue 46, finding 2: a staff member's looks at one user within 30 minutes of the first
/// are one row with a count and the pages seen; the log takes that update and no other.
@Suite(.timeLimit(.minutes(20))) struct AuditLooks {
    let temp: TemporaryDatabase
    let database: PanelDatabase
    let log: AuditLog
    static let start = Date(timeIntervalSince1970: 1_795_000_000)
    static let ann = StaffIdentity(adminID: 1, email: "ann@example.com", role: .support)
    static let bob = StaffIdentity(adminID: 2, email: "bob@example.com", role: .support)

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 20)
        database = try await PanelDatabase.open(path: temp.path)
        log = AuditLog(database: database)
    }

    func look(
        _ who: StaffIdentity, _ user: Int64, _ page: String, at minutes: Double, from address: String = "10.0.0.1"
    )
        async throws
    {
        try await log.appendLook(
            AuditEntry(actor: who, clientAddress: address, action: .userViewed, target: "user:\(user)", detail: page),
            now: Self.start.addingTimeInterval(minutes * 60))
    }

    func rows() async throws -> [String] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT actor_email, target, looks, at, last_at, detail FROM panel_audit_log ORDER BY id"
            ).map {
                "\($0["actor_email"] as String) \(($0["target"] as String?) ?? "-") \($0["looks"] as Int) \($0["at"] as String) "
                    + "\(($0["last_at"] as String?) ?? "-") [\(($0["detail"] as String?) ?? "-")]"
            }
        }
    }

    @Test func looksWithinHalfAnHourOfTheFirstAreCountedInItsRow() async throws {
        defer { temp.remove() }
        try await look(Self.ann, 7, "profile", at: 0)
        try await look(Self.ann, 7, "food items, a later page", at: 5)
        try await look(Self.ann, 7, "food items, a later page", at: 10)
        try await look(Self.ann, 7, "reminders", at: 29.5)
        // Past 30 minutes from the first: a new row.
        try await look(Self.ann, 7, "profile", at: 31)
        // Another staff member, another user, another address: rows of their own.
        try await look(Self.bob, 7, "profile", at: 1)
        try await look(Self.ann, 8, "profile", at: 2)
        try await look(Self.ann, 7, "profile", at: 3, from: "10.0.0.2")
        #expect(
            try await rows() == [
                "ann@example.com user:7 4 2026-11-18 11:06:40 2026-11-18 11:36:10 "
                    + "[profile; food items, a later page; reminders]",
                "ann@example.com user:7 1 2026-11-18 11:37:40 - [profile]",
                "bob@example.com user:7 1 2026-11-18 11:07:40 - [profile]",
                "ann@example.com user:8 1 2026-11-18 11:08:40 - [profile]",
                "ann@example.com user:7 1 2026-11-18 11:09:40 - [profile]",
            ])
    }

    @Test func aClockSetBackStartsANewRowInsteadOfFailingTheLook() async throws {
        defer { temp.remove() }
        try await look(Self.ann, 7, "profile", at: 10)
        try await look(Self.ann, 7, "reminders", at: 12)
        // The clock goes back five minutes: the row's last look is "later" than now.
        try await look(Self.ann, 7, "profile", at: 7)
        #expect(try await rows().count == 2)
    }

    @Test func theLogTakesThatUpdateAndNoOther() async throws {
        defer { temp.remove() }
        try await look(Self.ann, 7, "profile", at: 0)
        try await log.append(
            AuditEntry(actor: Self.ann, clientAddress: nil, action: .signIn, detail: "password"), now: Self.start)
        try await log.appendLook(
            AuditEntry(
                actor: Self.ann, clientAddress: nil, action: .campaignPreviewed, target: "campaign:1",
                detail: "2 users shown"),
            showing: [7, 8], now: Self.start)
        let refused = [
            "UPDATE panel_audit_log SET detail = 'x' WHERE action = 'sign_in'",
            "UPDATE panel_audit_log SET looks = looks + 1, last_at = '2026-11-18 12:00:00' WHERE action = 'sign_in'",
            "UPDATE panel_audit_log SET target = 'user:8', looks = 2, last_at = '2026-11-18 12:00:00'",
            "UPDATE panel_audit_log SET looks = 5, last_at = '2026-11-18 12:00:00' WHERE action = 'user_viewed'",
            "UPDATE panel_audit_log SET looks = 2, last_at = '2020-01-01 00:00:00' WHERE action = 'user_viewed'",
            "UPDATE panel_audit_log SET at = '2026-01-01 00:00:00' WHERE action = 'user_viewed'",
            "DELETE FROM panel_audit_log",
            "DELETE FROM panel_audit_users",
        ]
        for sql in refused {
            await #expect(throws: DatabaseError.self, "\(sql)") {
                try await database.write { try $0.execute(sql: sql) }
            }
        }
        #expect(try await rows().count == 3)
    }

    @Test func thePagesSeenStopGrowingAtTheLimit() async throws {
        defer { temp.remove() }
        for index in 0..<200 { try await look(Self.ann, 7, "food items, named: \(index)", at: Double(index) / 10) }
        let detail = try #require(
            try await database.read { try String.fetchOne($0, sql: "SELECT detail FROM panel_audit_log") })
        #expect(detail.count <= 1_000 && detail.hasSuffix("; …") && detail.hasPrefix("food items, named: 0; "))
        #expect(try await rows().first?.contains(" 200 ") == true, "every look counted")
    }
}
