import GRDB

/// Variant B, C or D of a campaign's message (`panel_campaign_variants`); A is the
/// campaign's own title and body.
struct PanelCampaignVariant: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_campaign_variants"

    var campaignID: Int64
    var variant: MessageVariant
    var title: String
    var body: String
    var template: String?

    enum Columns {
        static let campaignID = Column(CodingKeys.campaignID)
        static let variant = Column(CodingKeys.variant)
        static let title = Column(CodingKeys.title)
        static let body = Column(CodingKeys.body)
        static let template = Column(CodingKeys.template)
    }

    enum CodingKeys: String, CodingKey {
        case variant, title, body, template
        case campaignID = "campaign_id"
    }

    var message: VariantMessage {
        VariantMessage(variant: variant, title: title, body: body, template: template)
    }
}
