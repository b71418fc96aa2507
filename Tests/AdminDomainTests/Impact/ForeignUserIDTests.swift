import Foundation
import GRDB
import Testing

@testable import AdminDomain

/// A user id that is not a number (nothing but a foreign key the backend may not enforce
/// stops it) belongs to nobody: the report counts it for no one, on its first read and on
/// later ones, and goes on.
@Suite(.timeLimit(.minutes(20))) struct ForeignUserIDTests {
    @Test func eventsAndSubscriptionsWhoseUserIDIsTextCountForNobody() async throws {
        let fixture = try await ImpactFixture.make(reachable: 40, unreachable: 0)
        defer { fixture.remove() }
        let id = try await fixture.launch(CampaignExperiment(holdoutPercent: 20, goal: .upgraded, goalDays: 3))
        let inWindow = SQLiteTime.string(ImpactFixture.launchTime.addingTimeInterval(3_600))
        func writeHostile() async throws {
            let queue = try DatabaseQueue(path: fixture.path)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.execute(
                    sql:
                        "INSERT INTO activity_events (user_id, kind, created_at) "
                        + "VALUES ('1', 'upgraded', ?), ('abc', 'upgraded', ?), (X'01', 'upgraded', ?)",
                    arguments: [inWindow, inWindow, inWindow])
                try db.execute(
                    sql: """
                        INSERT INTO subscriptions
                          (user_id, plan_type, status, store, price_cents, currency, started_at, current_period_end)
                        VALUES ('two', 'monthly', 'active', 'web', 1, 'EUR', ?, '2027-01-01')
                        """, arguments: [inWindow])
            }
        }
        try await writeHostile()
        let tracker = CampaignImpactTracker(campaigns: fixture.campaigns)
        let now = ImpactFixture.launchTime.addingTimeInterval(7_200)
        try await tracker.refresh(now: now)
        // SQLite stores the text '1' in an INTEGER column as the number 1: user 1's event counts.
        let first = try #require(try await tracker.report(id))
        #expect(first.recipients.converted + first.holdout.converted == 1)
        try await writeHostile()
        try await tracker.refresh(now: now)
        let later = try #require(try await tracker.report(id))
        #expect(
            later.recipients.converted + later.holdout.converted == 1,
            "read by id, the same rows count for the same users")
    }
}
