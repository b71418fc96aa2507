import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// A `panel_*` stamp someone edited by hand into something that is not a time: the pages
/// that read it get an error to show, and the process goes on (GRDB's subscript would trap).
@Suite(.timeLimit(.minutes(20))) struct MalformedPanelTimes {
    @Test func aCampaignWhoseCreationTimeDoesNotReadIsAnErrorNotACrash() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let campaigns = Campaigns(database: database)
        let id = try await campaigns.create(CampaignDraft(title: "t", body: "b"), by: .commandLine)
        try await database.write { db in
            try db.execute(sql: "UPDATE panel_campaigns SET created_at = 'last tuesday' WHERE id = ?", arguments: [id])
        }
        await #expect(throws: (any Error).self) { try await campaigns.find(id) }
        await #expect(throws: (any Error).self) { try await campaigns.list() }
        // The database is still there for the next request.
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM panel_campaigns") } == 1)
    }

    @Test func anAuditRowWhoseTimeDoesNotReadIsAnErrorNotACrash() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let log = AuditLog(database: database)
        try await log.append(
            AuditEntry(actor: nil, actorEmail: "a@example.com", clientAddress: nil, action: .signInFailed))
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO panel_audit_log (at, actor_email, action) VALUES ('soon', 'b@example.com', ?)",
                arguments: [AuditAction.signInFailed.rawValue])
        }
        await #expect(throws: (any Error).self) { try await log.page(AuditQuery()) }
        // A page that holds only good rows still reads.
        let good = try await log.page(AuditQuery(actorPrefix: "a@"))
        #expect(good.map(\.actorEmail) == ["a@example.com"])
    }
}
