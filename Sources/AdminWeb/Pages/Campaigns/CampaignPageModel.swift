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
    /// Recipients against the holdout, once the audience is frozen (from memory, never a scan).
    var impact: CampaignImpact?
    /// Frozen with nobody drawn (an empty audience, or a launch before campaigns were measured): no report will come.
    var nobodyDrawn = false
    /// Why each recipient got their send hour, once planned at a usual hour.
    var timing: TimingSummary?
    /// Who turned campaign pushes, push or the permission off within 72 hours, beside a baseline.
    var cost: PushCost?
    var consentWindow: TimeInterval = ConsentReadings.window
    /// Before the launch.
    var preview: AudiencePreviews.State?
    /// The message as the chosen sample recipient would see it, in the chosen language and
    /// on the chosen platform (fallbacks before samples are counted).
    var phone: Phone?
    /// The test users a test send may go to.
    var testUsers: [TestUsers.Entry] = []
    var testLines: [CampaignTestSend.Line] = []
    /// The other variants' latest test sends from this session, by letter.
    var otherTests: [(variant: MessageVariant, lines: [CampaignTestSend.Line])] = []
    var problems: [String] = []
    var defaultTimeZone: String
    /// The test user last chosen, chosen again in the form.
    var testedUser: Int64?
    /// The variant of the last test send, else the one previewed: chosen in the test send form.
    var testedVariant: MessageVariant?
    /// A sample, language or platform the preview does not offer was asked for.
    var choiceRefused = false

    struct Phone {
        /// Which of the campaign's messages is shown, and every one it has.
        var variant: MessageVariant = .a
        var variants: [MessageVariant] = [.a]
        let title: String
        let body: String
        let recipient: SampleRecipient?
        let language: String
        let platform: Platform
        /// Every sample, language and platform the preview can switch to.
        let samples: [SampleRecipient]
        let languages: [String]
        /// Placeholders the shown message filled with their fallback.
        let fallbacks: [String]
    }

    struct Input {
        let id: Int64
        var notice: CampaignNotice?
        var testLines: [CampaignTestSend.Line] = []
        var otherTests: [(variant: MessageVariant, lines: [CampaignTestSend.Line])] = []
        var problems: [String] = []
        var choice = MessagePreviewChoice()
        var testedUser: Int64?
        var testedVariant: MessageVariant?
        /// Who is looking: their own drafts' previews go first in the queue.
        var viewerEmail: String?
    }

    /// The audience is waiting to be counted or being counted: the page refreshes itself.
    var previewPending: Bool {
        switch preview {
        case .queued?, .counting?: true
        default: false
        }
    }

    /// The audience has been counted (it may have nobody in it).
    var audienceCounted: Bool {
        if case .ready? = preview { return true }
        return false
    }

    /// The sample users the page showed, for the audit log.
    var shownUsers: [Int64] {
        guard let phone, let recipient = phone.recipient else { return [] }
        return [recipient.userID]
    }

    /// What a campaign's pages read: the campaigns, their previews, live counts and reports,
    /// the test users, and the templates and rows a message is filled from.
    struct Source: Sendable {
        let campaigns: Campaigns
        /// Audience previews, counted in the background.
        let previews: AudiencePreviews
        /// The live counts, read once for every page that watches a campaign.
        let progress: CampaignProgressCache
        let impact: CampaignImpactTracker
        let testUsers: TestUsers
        /// The templates and the recipient's rows a draft's phone preview is filled from.
        let templates: PushTemplateLibrary
        let database: PanelDatabase
        /// How long after a push consent is read again (72 hours; minutes in the demo).
        var consentWindow: TimeInterval = ConsentReadings.window
    }

    static func load(_ source: Source, _ input: Input) async throws -> CampaignPageModel {
        guard let campaign = try await source.campaigns.find(input.id) else {
            throw PanelError.notFound("No campaign #\(input.id).")
        }
        var model = CampaignPageModel(
            campaign: campaign, notice: input.notice.flatMap { $0.fits(campaign.status.known) ? $0 : nil },
            testLines: input.testLines, problems: input.problems, defaultTimeZone: source.campaigns.defaultTimeZone)
        model.testedUser = input.testedUser
        if campaign.status.known == .draft { model.otherTests = input.otherTests }
        model.testedVariant = input.testedVariant
        let status = campaign.status.known
        if status == .draft || status == .materialising || status == .sending || status == .paused {
            model.testUsers = try await source.testUsers.list()
        }
        if status == .draft {
            let state = await source.previews.state(for: campaign, requestedBy: input.viewerEmail)
            model.preview = state
            try await model.loadPhone(source, choice: input.choice)
        } else {
            // Only a draft's page previews its message: a choice for it here is refused, never
            // passed over as if it had been shown.
            if let name = MessagePreviewChoice.fieldNames.first(where: { input.choice.fields[$0] != nil }) {
                let labels = [
                    "variant": "variant", "sample": "recipient", "language": "language", "platform": "platform",
                ]
                model.problems.append(
                    "This campaign is \(campaign.status): its page has no message preview (only a draft's has), so "
                        + "the \(labels[name] ?? name) “\(input.choice.fields[name] ?? "")” cannot be shown. "
                        + "Open the campaign without it.")
                model.choiceRefused = true
            }
            let progress = try await source.progress.progress(campaign.id)
            model.progress = progress
            if let status, CampaignImpactTracker.isFrozen(status) {
                model.impact = try await source.impact.report(campaign.id)
                if model.impact == nil {
                    // Not computed here: the background job makes it (issue 46); until then the
                    // page says it is being computed and fills by itself.
                    model.nobodyDrawn = try await !source.campaigns.hasMembers(campaign.id)
                }
            }
            // A handful of rows per campaign, written by the freeze.
            model.timing = try await source.database.read { db in try TimingSummary.load(campaign: campaign.id, in: db)
            }
            // Three rows at most, kept by the consent readings.
            let id = campaign.id
            model.cost = try await source.database.read { db in try PushCost.load([id], in: db)[id] } ?? PushCost()
            model.consentWindow = source.consentWindow
            // How many went out is read, never taken from the link.
            if let kind = model.notice?.kind, kind == .paused || kind == .cancelled {
                model.notice?.count = progress.sent
            }
        }
        return model
    }

    private mutating func loadPhone(_ source: Source, choice: MessagePreviewChoice) async throws {
        var samples: [SampleRecipient] = []
        if case .ready(let preview, _)? = preview { samples = preview.samples }
        let letters = campaign.experiment.letters
        let variant = choice.variant(in: letters) ?? .a
        guard let message = campaign.message(variant),
            let text = try? CampaignText(
                title: message.title, body: message.body, template: message.template, library: source.templates)
        else {
            problems.append(
                variant == .a
                    ? "This campaign's message no longer reads as a template (was a template file changed?): edit the "
                        + "draft and choose again."
                    : "Variant \(variant.letter) no longer reads as a template (was a template file changed?): edit "
                        + "the draft and choose again."
            )
            return
        }
        let languages = text.variants.map(\.language)
        let read = choice.read(samples: samples.map(\.userID), languages: languages, variants: letters)
        problems += read.problems
        choiceRefused = !read.problems.isEmpty
        if testedVariant == nil { testedVariant = variant }
        let sample = read.sample.flatMap { id in samples.first { $0.userID == id } } ?? samples.first
        var values: RecipientValues?
        if let sample { values = try await RecipientValues.load([sample.userID], in: source.database)[sample.userID] }
        // A chosen language shows that variant; otherwise the recipient's own.
        let locale = read.language ?? values?.locale ?? "en"
        let filled = text.renderReporting(locale: locale, values: values?.values ?? [:])
        let shownLanguage =
            text.variants.first { locale.lowercased().hasPrefix($0.language) }?.language ?? languages.first ?? "en"
        let platform = read.platform ?? sample.flatMap { Platform(rawValue: $0.platform) } ?? .ios
        phone = Phone(
            variant: variant, variants: letters, title: filled.title, body: filled.body, recipient: sample,
            language: shownLanguage, platform: platform,
            samples: samples, languages: languages, fallbacks: filled.fallbacks.sorted())
    }
}
