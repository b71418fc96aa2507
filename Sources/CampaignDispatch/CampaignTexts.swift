import AdminDomain
import PushTemplates

/// Each claimed delivery's title and body, filled for its recipient.
struct CampaignTexts: Sendable {
    let library: PushTemplateLibrary
    let database: PanelDatabase

    /// By delivery row; a delivery missing here is sent with its campaign's text as stored
    /// (which the composer checked, so this happens only if a template was removed since).
    /// Never fails: the rows are already claimed, so if the recipients' values cannot be
    /// read, each placeholder gets its fallback ("Hi there") rather than no push at all.
    func render(_ claimed: [ClaimedDelivery]) async -> [Int64: (title: String, body: String)] {
        var texts: [Int64: CampaignText] = [:]
        for delivery in claimed where texts[delivery.campaignID] == nil {
            texts[delivery.campaignID] = try? CampaignText(title: delivery.title, body: delivery.body,
                                                          template: delivery.template, library: library)
        }
        guard !texts.isEmpty else { return [:] }
        let personal = claimed.filter { texts[$0.campaignID]?.isPersonal == true }.map(\.userID)
        let users = (try? await RecipientValues.load(personal, in: database)) ?? [:]
        var rendered: [Int64: (title: String, body: String)] = [:]
        for delivery in claimed {
            guard let text = texts[delivery.campaignID] else { continue }
            let recipient = users[delivery.userID]
            rendered[delivery.rowID] = text.render(locale: recipient?.locale ?? "en", values: recipient?.values ?? [:])
        }
        return rendered
    }
}
