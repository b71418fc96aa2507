import GRDB

/// A reachable user drawn at a campaign's freeze (`panel_campaign_members`): held out, given
/// a variant, or one of the rest. Written by the freeze's batch INSERT … SELECT, never one
/// by one: hence no `PersistableRecord`.
struct PanelCampaignMember: Codable, Sendable, Equatable, FetchableRecord, TableRecord {
    static let databaseTableName = "panel_campaign_members"

    var campaignID, userID: Int64
    /// 'holdout', 'a' to 'd', or 'rest'.
    var arm, platform: String
    /// 'usual' (sent at their usual hour), 'control' (at the fixed time), nil (as scheduled, or held out).
    var timing: String?
    /// With a timing: when the user's push was due (their first device's), for opens within a day.
    var dueAt: PanelTime?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case arm, platform, timing
        case dueAt = "due_at"
        case campaignID = "campaign_id"
        case userID = "user_id"
    }

    typealias Columns = CodingKeys
}
