import GRDB

/// The last report of a campaign whose window closed (`panel_campaign_reports`): the
/// `CampaignImpact` as JSON, kept as it was last computed.
struct PanelCampaignReport: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_campaign_reports"

    var campaignID: Int64
    var asOf: String
    var report: String

    enum Columns {
        static let campaignID = Column(CodingKeys.campaignID)
        static let asOf = Column(CodingKeys.asOf)
        static let report = Column(CodingKeys.report)
    }

    enum CodingKeys: String, CodingKey {
        case report
        case campaignID = "campaign_id"
        case asOf = "as_of"
    }
}
