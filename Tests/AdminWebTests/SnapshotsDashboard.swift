import Foundation
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// The dashboard, its body rendered as the page cache renders it, as `.html` snapshots under
/// `__Snapshots__/SnapshotsDashboard/`.
@Suite(.timeLimit(.minutes(20))) struct SnapshotsDashboard {
    typealias Parts = SnapshotsCampaignParts
    static let now = SQLiteTime.date("2026-11-23 10:00:00")!

    /// No rows counted, but a category the app stored as markup with a large count.
    static var snapshot: DashboardSnapshot {
        var snapshot = DashboardSnapshot(
            tally: DashboardTally(window: DayWindow(first: 20_400), countedAt: now), now: now)
        let hostile = DashboardChart(
            id: .categories, title: "Food items by category", kind: .bar, axis: .categories, valueLabel: "Items",
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
            refreshes: .init(
                failure: .init(
                    message: "database is locked <SQLITE_BUSY> & \"retrying\"", at: Self.now.addingTimeInterval(-600)),
                timing: .init(full: .milliseconds(12_345), incremental: .milliseconds(56))))
        model.campaigns = [
            DashboardCampaign(
                campaign: Parts.campaign(
                    18, .known(.finished), launchedAt: "2026-11-20 09:00:00", experiment: Parts.experiment),
                impact: Parts.impact),
            DashboardCampaign(
                campaign: Parts.campaign(19, .known(.sending), name: nil, launchedAt: "2026-11-23 09:00:00"),
                impact: nil,
                nobodyDrawn: true),
        ]
        // Active journeys join the campaigns' card (issue 34).
        model.journeys = [SnapshotsJourneys.journey(31, .sending, entered: 420)]
        assertPageSnapshot(
            of: DashboardView(model: model, viewer: admin, body: DashboardBody(model: model).content.renderString()),
            "adminCountDoneLastRefreshFailed")

        let support = SnapshotsUsers.viewer
        let following = DashboardModel(
            snapshot: Self.snapshot, range: .month, refreshEvery: 60, fullCountEvery: 900,
            countStartedAt: Int64(Self.now.timeIntervalSince1970) + 30, refreshes: nil)
        assertPageSnapshot(
            of: DashboardView(
                model: following, viewer: support, body: DashboardBody(model: following).content.renderString()),
            "supportCountUnderWay")
    }

    /// Figures and charts with values: cards with their change and trend line, the day under
    /// way marked, document types in words, revenue per currency (issue 36).
    @Test func dashboardWithFigures() {
        var snapshot = Self.snapshot
        let days = (17...23).map { "2026-11-\($0)" }
        func chart(_ id: DashboardChart.ID) -> DashboardChart { snapshot.chart(id)! }
        var signUps = chart(.signUps)
        signUps.labels = days
        signUps.series = [ChartSeries(name: "Sign-ups", values: [12, 15, 9, 14, 18, 11, 4])]
        var active = chart(.activeUsers)
        active.labels = days
        active.series = [ChartSeries(name: "Active users", values: [120, 131, 118, 140, 150, 97, 60])]
        var expiry = chart(.expiryStatus)
        expiry.series = [
            ChartSeries(name: "Food", values: [40, 25, 300]), ChartSeries(name: "Documents", values: [3, 2, 60]),
        ]
        var documents = chart(.documentTypes)
        documents.labels = [
            "Passport", "ID card", "Driver's licence", "Visa", "Insurance", "Membership", "Custom type",
        ]
        documents.series = [ChartSeries(name: "Items", values: [30, 22, 18, 9, 7, 5, 2])]
        var revenue = chart(.revenue)
        revenue.labels = ["EUR", "JPY", "BHD", "XQQ"]
        revenue.series = [ChartSeries(name: "Per month", values: [129_900, 31_667, 1_234, 500])]
        let drawn = [signUps, active, expiry, documents, revenue]
        snapshot.charts = snapshot.charts.map { chart in drawn.first { $0.id == chart.id } ?? chart }
        snapshot.headlines[.week] = [
            DashboardFigure(
                name: "Total users", value: 1_240, previous: 1_100, format: .count,
                comparedWith: "than at the end of 2026-11-16",
                detail: "Accounts not deleted, 3 of them suspended", asOf: Self.now,
                sparkline: Sparkline(values: [1_100, 1_130, 1_150, 1_180, 1_200, 1_225, 1_240], step: .day)),
            DashboardFigure(
                name: "Premium conversion", value: 0.05, previous: 0.04, format: .percent,
                comparedWith: "than at the end of 2026-11-16",
                trend: Trend(now: 0.052, basis: "subscriptions in force"), detail: "62 premium users of 1,240",
                asOf: Self.now.addingTimeInterval(-600),
                sparkline: Sparkline(values: [0.04, nil, 0.045, 0.05, 0.05, 0.051, 0.052], step: .day)),
            DashboardFigure(
                name: "Households with more than one member", value: 0.31, previous: nil, format: .percent,
                comparedWith: nil,
                detail: "12 of 39 households have two or more members", asOf: Self.now.addingTimeInterval(-600)),
        ]
        let model = DashboardModel(
            snapshot: snapshot, range: .week, refreshEvery: 60, fullCountEvery: 900, countStartedAt: nil, refreshes: nil
        )
        assertPageSnapshot(
            of: DashboardView(
                model: model, viewer: SnapshotsUsers.viewer, body: DashboardBody(model: model).content.renderString()),
            "supportWithFigures")
    }
}
