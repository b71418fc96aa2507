import AdminDomain
import Foundation

/// The last page before a send: the exact count, the schedule in words, and what to
/// think twice about.
struct CampaignConfirmModel {
    let campaign: CampaignRecord
    let preview: AudiencePreview
    let countedAt: Date
    /// Campaigns of the last 7 days with the same segment and title.
    let similar: [CampaignRecord]
    let defaultTimeZone: String
    var typed: String = ""
    var problem: String?

    /// Above this many devices the sender types the count.
    static let typeAbove = 10_000

    /// A planned time that has passed since composing: launching would send at once, which
    /// is not what was planned.
    func plannedTimeHasPassed(now: Date = Date()) -> Bool {
        if case .at(let date) = campaign.schedule { return date <= now }
        return false
    }
    var mustType: Bool { preview.counts.reachableDevices > Self.typeAbove }

    /// nil while the preview is still counting: the page sends the browser back to it.
    static func load(_ source: CampaignPageModel.Source, id: Int64) async throws -> CampaignConfirmModel? {
        guard let campaign = try await source.campaigns.find(id) else { throw PanelError.notFound("No campaign #\(id).") }
        guard campaign.status.known == .draft, let (preview, at) = await source.previews.ready(id) else { return nil }
        let similar = try await source.campaigns.similarRecent(to: campaign, since: Date().addingTimeInterval(-7 * 86_400))
        return CampaignConfirmModel(campaign: campaign, preview: preview, countedAt: at, similar: similar,
                                    defaultTimeZone: source.campaigns.defaultTimeZone)
    }

    /// What the sender typed is the count, with or without separators.
    func typedMatches(_ text: String) -> Bool {
        guard mustType else { return true }
        let digits = text.filter { !$0.isWhitespace && $0 != "," && $0 != "." && $0 != "'" && $0 != "_" }
        return Int(digits) == preview.counts.reachableDevices
    }
}
