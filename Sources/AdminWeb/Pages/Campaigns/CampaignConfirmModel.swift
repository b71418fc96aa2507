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
    /// The latest launch of any campaign (UTC text), read when the page was built.
    var latestLaunch: PanelTime?
    var typed: String = ""
    var problem: String?
    /// Why the count on the page is a new one, when it is.
    var notice: String?

    /// Above this many devices the sender types the count.
    static let typeAbove = 10_000
    /// A count older than this is made again before it is confirmed: other campaigns' sends
    /// and people's settings move on.
    static let oldestCount: TimeInterval = 300

    /// A planned time that has passed since composing: launching would send at once, which
    /// is not what was planned.
    func plannedTimeHasPassed(now: Date = Date()) -> Bool {
        if case .at(let date) = campaign.schedule { return date <= now }
        return false
    }
    /// The devices the launch sends to: the holdout's get nothing.
    var devicesToSend: Int { preview.devicesToSend }
    var mustType: Bool { devicesToSend > Self.typeAbove }

    /// When the count began: rows written after it are not in it.
    var countStarted: Date {
        let elapsed = preview.elapsed.components
        return countedAt.addingTimeInterval(-(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18))
    }

    /// Names the count the page shows, in its form: a launch confirms that count and no other.
    var countStamp: String { String(Int64((countedAt.timeIntervalSince1970 * 1_000).rounded())) }

    /// Why the count may no longer hold, or nil: a launch of any campaign since it began (a
    /// launch in the same second counts, as stored times have whole seconds), or its age.
    func staleReason(now: Date = Date()) -> String? {
        let started = PanelTime(countStarted)
        if let latestLaunch, latestLaunch >= started {
            return
                "a campaign was launched at \(latestLaunch) UTC, after this audience was counted at \(started) UTC, "
                + "and its pushes count against the same frequency cap"
        }
        if now.timeIntervalSince(countStarted) > Self.oldestCount {
            return "the count was more than \(Int(Self.oldestCount / 60)) minutes old"
        }
        return nil
    }

    /// nil while the preview is still counting: the page sends the browser back to it.
    static func load(_ source: CampaignPageModel.Source, id: Int64) async throws -> CampaignConfirmModel? {
        guard let campaign = try await source.campaigns.find(id) else {
            throw PanelError.notFound("No campaign #\(id).")
        }
        guard campaign.status.known == .draft, let (preview, at) = await source.previews.ready(id) else { return nil }
        let similar = try await source.campaigns.similarRecent(
            to: campaign, since: Date().addingTimeInterval(-7 * 86_400))
        let latestLaunch = try await source.campaigns.latestLaunch()
        return CampaignConfirmModel(
            campaign: campaign, preview: preview, countedAt: at, similar: similar,
            defaultTimeZone: source.campaigns.defaultTimeZone, latestLaunch: latestLaunch)
    }

    /// The same page with a new count.
    func counted(_ preview: AudiencePreview, at: Date) -> CampaignConfirmModel {
        CampaignConfirmModel(
            campaign: campaign, preview: preview, countedAt: at, similar: similar, defaultTimeZone: defaultTimeZone,
            latestLaunch: latestLaunch)
    }

    /// What the sender typed is the count, with or without separators.
    func typedMatches(_ text: String) -> Bool {
        guard mustType else { return true }
        let digits = text.filter { !$0.isWhitespace && $0 != "," && $0 != "." && $0 != "'" && $0 != "_" }
        return Int(digits) == devicesToSend
    }
}
