@testable import AdminDomain
@testable import AdminWeb
import Foundation
import Testing

/// The dashboard, its body rendered as the page cache renders it, as `.html` snapshots under
/// `__Snapshots__/SnapshotsDashboard/`.
@Suite(.timeLimit(.minutes(2))) struct SnapshotsDashboard {
    typealias Parts = SnapshotsCampaignParts
    static let now = SQLiteTime.date("2026-11-23 10:00:00")!

    /// No rows counted, but a category the app stored as markup with a large count.
    static var snapshot: DashboardSnapshot {
        var snapshot = DashboardSnapshot(tally: DashboardTally(window: DayWindow(first: 20_400), countedAt: now), now: now)
        let hostile = DashboardChart(id: .categories, title: "Food items by category", kind: .bar, axis: .categories, valueLabel: "Items",
                                     labels: [Hostile.script, "Dairy & \"milk\"", Hostile.rightToLeft],
                                     series: [ChartSeries(name: "Items", values: [3, 1_000_000, 7])], note: "Counted <in full>", asOf: now)
        snapshot.charts = snapshot.charts.map { $0.id == .categories ? hostile : $0 }
        return snapshot
    }

    @Test func dashboardView() {
        let admin = SnapshotsAccountAndLogin.viewer
        var model = DashboardModel(
            snapshot: Self.snapshot, range: .week, refreshEvery: 60, fullCountEvery: 900,
            countStartedAt: Int64(Self.now.timeIntervalSince1970) - 30,
            refreshes: .init(failure: .init(message: "database is locked <SQLITE_BUSY> & \"retrying\"", at: Self.now.addingTimeInterval(-600)),
                             timing: .init(full: .milliseconds(12_345), incremental: .milliseconds(56))))
        model.campaigns = [
            DashboardCampaign(campaign: Parts.campaign(18, .known(.finished), launchedAt: "2026-11-20 09:00:00", experiment: Parts.experiment),
                              impact: Parts.impact),
            DashboardCampaign(campaign: Parts.campaign(19, .known(.sending), name: nil, launchedAt: "2026-11-23 09:00:00"), impact: nil,
                              nobodyDrawn: true),
        ]
        // Active journeys join the campaigns' card (issue 34).
        model.journeys = [SnapshotsJourneys.journey(31, .sending, entered: 420)]
        assertPageSnapshot(of: DashboardView(model: model, viewer: admin, body: DashboardBody(model: model).content.renderString()),
                           "adminCountDoneLastRefreshFailed")

        let support = SnapshotsUsers.viewer
        let following = DashboardModel(snapshot: Self.snapshot, range: .month, refreshEvery: 60, fullCountEvery: 900,
                                       countStartedAt: Int64(Self.now.timeIntervalSince1970) + 30, refreshes: nil)
        assertPageSnapshot(of: DashboardView(model: following, viewer: support, body: DashboardBody(model: following).content.renderString()),
                           "supportCountUnderWay")
    }
}
