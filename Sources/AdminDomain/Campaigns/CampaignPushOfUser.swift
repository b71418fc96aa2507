import Foundation
import GRDB

/// A campaign push to one of a user's devices, for their profile.
public struct CampaignPushOfUser: Sendable, Equatable {
    public let deliveryID: Int64
    public let campaignID: Int64
    /// The campaign's internal name, or its title when it has none.
    public let campaignName: String
    /// The campaign's stored text and template: what the sender filled for this user.
    public let title: String
    public let body: String
    public let template: String?
    public let deviceID: Int64
    public let userID: Int64
    public let state: Stored<DeliveryState>
    /// 0 nothing yet, 1 received, 2 opened.
    public let receipt: Int
    public let updatedAt: PanelTime
    /// When a push still waiting goes out (its recipient's quiet hours end, or the schedule).
    public let dueAt: PanelTime?
    /// Which of the campaign's messages it carries; nil while it waits for the winner.
    public var variant: MessageVariant? = nil
    /// Sent by a journey: its page is the journey's, not a campaign's.
    public var isJourney = false

    /// The newest first, from the (user, updated) index.
    public static func latest(userID: Int64, limit: Int = 20, in database: PanelDatabase) async throws
        -> [CampaignPushOfUser]
    {
        try await database.read { db in
            let delivery = PanelDelivery.Columns.self
            let campaign = CampaignRecord.Columns.self
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT q.id, q.campaign_id,
                           COALESCE(NULLIF(c.name, ''), c.title) AS name,
                           COALESCE(v.title, c.title) AS title,
                           COALESCE(v.body, c.body) AS body,
                           CASE WHEN v.variant IS NULL THEN c.template ELSE v.template END AS template,
                           q.device_id, q.state, q.receipt, q.updated_at, q.due_at, q.variant,
                           c.kind = \(CampaignKind.journey.sqlLiteral) AS journey
                    FROM panel_deliveries q INDEXED BY panel_deliveries_user
                    JOIN panel_campaigns c ON c.id = q.campaign_id
                    LEFT JOIN panel_campaign_variants v ON v.campaign_id = q.campaign_id AND v.variant = q.variant
                    WHERE q.user_id = ?
                    ORDER BY q.updated_at DESC
                    LIMIT ?
                    """, arguments: [userID, limit]
            ).map { row in
                CampaignPushOfUser(
                    deliveryID: row[delivery.id], campaignID: row[delivery.campaignID],
                    campaignName: row[campaign.name],
                    title: row[campaign.title], body: row[campaign.body], template: row[campaign.template],
                    deviceID: row[delivery.deviceID], userID: userID, state: try row.decode(forColumn: delivery.state),
                    receipt: row[delivery.receipt], updatedAt: try row.decode(forColumn: delivery.updatedAt),
                    dueAt: try row.decode(forColumn: delivery.dueAt),
                    variant: (row[delivery.variant] as String?).flatMap(MessageVariant.init(rawValue:)),
                    isJourney: row["journey"])
            }
        }
    }
}
