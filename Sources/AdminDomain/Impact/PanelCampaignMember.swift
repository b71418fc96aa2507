import GRDB

/// A reachable user drawn at a campaign's freeze (`panel_campaign_members`): held out, given
/// a variant, or one of the rest. Written by the freeze's batch INSERT … SELECT, never one
/// by one: hence no `PersistableRecord`.
struct PanelCampaignMember: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    static let databaseTableName = "panel_campaign_members"

    var campaignID: Int64
    var userID: Int64
    /// 'holdout', 'a' to 'd', or 'rest'.
    var arm: String
    var platform: String

    enum Columns {
        static let campaignID = Column(CodingKeys.campaignID)
        static let userID = Column(CodingKeys.userID)
        static let arm = Column(CodingKeys.arm)
        static let platform = Column(CodingKeys.platform)
    }

    enum CodingKeys: String, CodingKey {
        case arm, platform
        case campaignID = "campaign_id"
        case userID = "user_id"
    }
}
