import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// The campaign list's orders read the primary key both ways: no sort of the table per page.
@Suite(.timeLimit(.minutes(20))) struct CampaignListOrder {
    @Test(arguments: [true, false]) func eachOrderAndPositionReadsThePrimaryKeyWithoutASort(newestFirst: Bool)
        async throws
    {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        for status in [nil, CampaignShownStatus.finished, .scheduled] {
            for position in [Campaigns.ListPosition.first, .after(40), .before(40)] {
                let request = Campaigns.pageRequest(
                    status: status, newestFirst: newestFirst, at: position, limit: 50, now: Date()
                ).request
                let plan = try await database.read { db in
                    let statement = try request.makePreparedRequest(db).statement
                    return try queryPlan(db, statement.sql, statement.arguments)
                }
                #expect(
                    plan.contains {
                        $0.contains("panel_campaigns")
                            && ($0.contains("PRIMARY KEY") || $0.hasPrefix("SCAN panel_campaigns"))
                    }, "\(plan)")
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "the id order needs no sort: \(plan)")
            }
        }
    }
}
