import AdminDomain
import Foundation

/// The dashboard's data for one range, ready to render: the snapshot as the refresher has
/// it (waiting only when there is none yet), and for admins how the refreshes are going.
struct DashboardModel: PageModel {
    struct Input {
        var range: DashboardRange
        /// An admin asked for a full count at this second: the page follows it.
        var countStartedAt: Int64?
        var showsRefreshes: Bool
    }

    struct Refreshes {
        let failure: DashboardRefresher.Failure?
        let timing: DashboardRefresher.Timing
    }

    let snapshot: DashboardSnapshot
    let range: DashboardRange
    let refreshEvery: TimeInterval
    let fullCountEvery: TimeInterval
    let countStartedAt: Int64?
    /// Only for those who may start a full count: why the last refresh failed, how long they take.
    let refreshes: Refreshes?
    /// Campaigns launched in the range, with their reports.
    var campaigns: [DashboardCampaign] = []
    /// Active journeys, which join the campaigns' card.
    var journeys: [JourneyRecord] = []
    /// Of those campaigns and journeys, the ones whose recipients turned pushes off more than
    /// their baseline beyond chance (`PushCost.exceedsBaseline`).
    var costlyPushes: [(id: Int64, name: String, journey: Bool)] = []

    /// The figures, how often they are counted, and the campaigns launched in the range.
    struct Source: Sendable {
        let dashboard: DashboardRefresher
        /// How often the figures are counted, as the page says.
        let refreshEvery, fullCountEvery: TimeInterval
        let campaigns: Campaigns
        /// The launched campaigns' holdout and goal reports.
        let impact: CampaignImpactTracker
        /// nil where a test builds the dashboard without journeys.
        var journeys: Journeys?
    }

    static func load(_ source: Source, _ input: Input) async throws -> DashboardModel {
        let snapshot = try await Self.snapshot(source.dashboard)
        var refreshes: Refreshes?
        if input.showsRefreshes {
            refreshes = Refreshes(failure: await source.dashboard.lastFailure, timing: await source.dashboard.timing)
        }
        var model = DashboardModel(
            snapshot: snapshot, range: input.range, refreshEvery: source.refreshEvery,
            fullCountEvery: source.fullCountEvery, countStartedAt: input.countStartedAt, refreshes: refreshes)
        let now = Date()
        for campaign in try await source.campaigns.launched(
            from: now.addingTimeInterval(-Double(input.range.days) * 86_400), to: now.addingTimeInterval(86_400))
        {
            let impact = try await source.impact.report(campaign.id)
            let frozen = campaign.status.known.map(CampaignImpactTracker.isFrozen) == true
            model.campaigns.append(
                DashboardCampaign(
                    campaign: campaign, impact: impact,
                    nobodyDrawn: impact == nil && frozen ? try await !source.campaigns.hasMembers(campaign.id) : false))
        }
        if let journeys = source.journeys {
            model.journeys = try await journeys.list(limit: 100).filter { $0.status == .active }
        }
        let costs = try await source.campaigns.costs(model.campaigns.map(\.campaign.id) + model.journeys.map(\.id))
        model.costlyPushes =
            model.campaigns.filter { costs[$0.campaign.id]?.exceedsBaseline == true }
            .map { ($0.campaign.id, $0.campaign.displayName, false) }
            + model.journeys.filter { costs[$0.id]?.exceedsBaseline == true }.map { ($0.id, $0.displayName, true) }
        return model
    }

    /// The refresher's last snapshot, never waiting for a count (issue 46: a first page after a
    /// start at a million users waited 50 s for the count it started). Before the first count
    /// is in, the page says the figures are being counted, and when to come back.
    static func snapshot(_ dashboard: DashboardRefresher) async throws -> DashboardSnapshot {
        if let snapshot = await dashboard.latest() { return snapshot }
        if await dashboard.lastFailure != nil {
            throw PanelError(
                status: .serviceUnavailable,
                sentence:
                    "The dashboard's figures could not be counted yet. Try again in a minute; if it goes on, an admin "
                    + "can look at the panel's log.", retryAfterSeconds: 60)
        }
        throw PanelError(
            status: .serviceUnavailable,
            sentence:
                "The dashboard's figures are being counted: the first count after the panel starts takes up to a "
                + "minute on a big database. This page does not wait for it; reload it in a few seconds.",
            retryAfterSeconds: 5)
    }

    /// The range a link asked for: none is the standard 30 days; anything else is refused
    /// with a sentence rather than replaced.
    static func range(from text: String?) throws -> DashboardRange {
        // An empty value is a form sent with nothing chosen: the standard range, as with none.
        guard let text, !text.isEmpty else { return .standard }
        guard let days = Int(text), let range = DashboardRange(rawValue: days) else {
            throw PanelError(
                status: .badRequest,
                sentence: "The dashboard shows 7, 30, 90 or 365 days; \"\(text.prefix(20))\" is not one of them.")
        }
        return range
    }

    /// The second a full count was asked for, as the refresh link carries it.
    static func countStart(from text: String?) throws -> Int64? {
        guard let text else { return nil }
        guard let seconds = Int64(text), seconds >= 0 else {
            throw PanelError(
                status: .badRequest,
                sentence:
                    "The link should carry the time a full count was asked for; \"\(text.prefix(20))\" is not one. "
                    + "Open the dashboard again."
            )
        }
        // A time ahead of the clock would be followed for ever: no count can end after it.
        guard seconds <= Int64(Date().timeIntervalSince1970) + 300 else {
            throw PanelError(
                status: .badRequest,
                sentence:
                    "The link asks to follow a full count asked for in the future; no count can be. Open the dashboard "
                    + "again."
            )
        }
        return seconds
    }

    /// Where the count an admin asked for has got to.
    enum CountProgress: Equatable {
        case underWay, done, failed
    }

    var countProgress: CountProgress? {
        guard let started = countStartedAt else { return nil }
        let startedAt = Date(timeIntervalSince1970: TimeInterval(started))
        if snapshot.countedAt >= startedAt { return .done }
        if let failure = refreshes?.failure, failure.at >= startedAt { return .failed }
        return .underWay
    }

    var headlines: [DashboardFigure] { snapshot.headlines[range] ?? [] }
    var charts: [DashboardChart] { snapshot.charts.map { $0.slice(for: range) } }
}
