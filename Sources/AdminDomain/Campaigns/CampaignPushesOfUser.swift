import Foundation
import GRDB

/// A campaign push to one of a user's devices, for their profile.
public struct CampaignPushOfUser: Sendable, Equatable {
    public let campaignID: Int64
    public let title: String
    public let deviceID: Int64
    public let state: Stored<DeliveryState>
    /// 0 nothing yet, 1 received, 2 opened.
    public let receipt: Int
    public let updatedAt: String

    /// The newest first, from the (user, updated) index.
    public static func latest(userID: Int64, limit: Int = 20, in database: PanelDatabase) async throws -> [CampaignPushOfUser] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT q.campaign_id, c.title, q.device_id, q.state, q.receipt, q.updated_at
                FROM panel_deliveries q INDEXED BY panel_deliveries_user JOIN panel_campaigns c ON c.id = q.campaign_id
                WHERE q.user_id = ? ORDER BY q.updated_at DESC LIMIT ?
                """, arguments: [userID, limit]).map { row in
                CampaignPushOfUser(campaignID: row[0], title: row[1], deviceID: row[2], state: try row.decode(forColumn: "state"),
                                   receipt: row[4], updatedAt: row[5])
            }
        }
    }
}
