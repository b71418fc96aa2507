import GRDB

/// Variant B, C or D of a campaign's message (`panel_campaign_variants`); A is the
/// campaign's own title and body.
struct PanelCampaignVariant: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "panel_campaign_variants"

    var campaignID: Int64
    var variant: MessageVariant
    var title, body: String
    var template: String?

    /// The columns are the coding keys: each named once, in Swift and in SQL.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case variant, title, body, template
        case campaignID = "campaign_id"
    }

    typealias Columns = CodingKeys

    var message: VariantMessage {
        VariantMessage(variant: variant, title: title, body: body, template: template)
    }
}
