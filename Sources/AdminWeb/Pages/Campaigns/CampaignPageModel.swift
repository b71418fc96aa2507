import AdminDomain
import CampaignDispatch
import Foundation
import PushTemplates

/// One campaign: before its launch, the audience preview and a phone-like preview of the
/// message for a real sample recipient; after it, the live counts.
struct CampaignPageModel {
    let campaign: CampaignRecord
    var notice: CampaignNotice?
    /// Counts of the deliveries, once launched.
    var progress: CampaignProgress?
    /// Before the launch.
    var preview: AudiencePreviews.State?
    /// The message as the first sample recipient would see it (fallbacks before samples).
    var phone: (title: String, body: String, recipient: SampleRecipient?)?
    var testLines: [CampaignTestSend.Line] = []
    var problems: [String] = []
    var defaultTimeZone: String

    struct Input {
        let id: Int64
        var notice: CampaignNotice?
        var testLines: [CampaignTestSend.Line] = []
        var problems: [String] = []
    }

    static func load(_ services: PanelServices, _ input: Input) async throws -> CampaignPageModel {
        guard let campaign = try await services.campaigns.find(input.id) else { throw PanelError.notFound("No campaign #\(input.id).") }
        var model = CampaignPageModel(campaign: campaign, notice: input.notice, testLines: input.testLines, problems: input.problems,
                                      defaultTimeZone: services.campaigns.defaultTimeZone)
        if campaign.status.known == .draft {
            let state = await services.previews.state(for: campaign)
            model.preview = state
            var sample: SampleRecipient?
            if case .ready(let preview, _) = state { sample = preview.samples.first }
            var values: RecipientValues?
            if let sample { values = try await RecipientValues.load([sample.userID], in: services.database)[sample.userID] }
            if let text = try? CampaignText(title: campaign.title, body: campaign.body, template: campaign.template, library: services.templates) {
                let filled = text.render(locale: values?.locale ?? "en", values: values?.values ?? [:])
                model.phone = (filled.title, filled.body, sample)
            } else {
                model.problems.append("This campaign's message no longer reads as a template (was a template file changed?): cancel it and compose it again.")
            }
        } else {
            model.progress = try await services.campaignProgress.progress(campaign.id)
        }
        return model
    }
}
