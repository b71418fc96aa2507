import GRDB

/// The last report of a campaign whose window closed (`panel_campaign_reports`): the
/// `CampaignImpact` as JSON, kept as it was last computed.
struct PanelCampaignReport: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_campaign_reports"

    var campaignID: Int64
    var asOf: PanelTime
    var report: String

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case report
        case campaignID = "campaign_id"
        case asOf = "as_of"
    }

    typealias Columns = CodingKeys
}
