import Foundation
import TestSupport
import Testing

@testable import AdminDomain
@testable import AdminWeb

/// What the dashboard's charts and cards draw: the vocabulary's words, names never cut
/// inside a word, the period under way marked, money never on a shared axis, and a trend
/// line a screen reader can name.
@Suite(.timeLimit(.minutes(20))) struct DashboardCharts {
    static let now = SQLiteTime.date("2026-11-23 10:00:00")!

    static func render(_ chart: DashboardChart) -> String {
        ChartFigure(chart: chart, range: .month).content.renderString()
    }

    /// The seeded app's documents and devices, as the page shows them: never the stored key.
    @Test func chartsShowTheVocabularysWordsNeverTheStoredKeys() async throws {
        let panel = try await TestPanel(areas: [.dashboard], users: 300)
        defer { panel.remove() }
        try await panel.test { client in
            let page = try await client.get("/", cookie: try await panel.signIn(client)).text
            func part(_ id: String) -> String {
                guard let start = page.range(of: "id=\"chart-\(id)\"") else { return "" }
                let rest = page[start.lowerBound...]
                return String(rest[..<(rest.range(of: "</section>")?.lowerBound ?? rest.endIndex)])
            }
            let documents = part("document-types")
            #expect(documents.contains("<svg"), "the seeded documents are drawn")
            for key in DocumentType.allCases.map(\.rawValue) where key.contains("_") {
                #expect(!documents.contains(key), "\(key)")
            }
            #expect(
                documents.contains("ID card") && documents.contains("Driver&#39;s licence")
                    || documents.contains("Driver's licence"))
            let devices = part("devices")
            #expect(!devices.contains(">ios<") && !devices.contains(">granted<") && devices.contains("iOS"))
            let sources = part("items-added")
            #expect(!sources.contains(">manual<") && sources.contains("Typed in"))
        }
    }

    /// "Expiring soon (30 days)" was drawn as "Expiring so…": names wrap between words, and
    /// a slanting name too long for its room ends at a word, the whole name in a title.
    @Test func aLongNameIsNeverCutInsideAWord() {
        let expiry = DashboardChart(
            id: .expiryStatus, title: "Items by expiry status now", kind: .stackedBar, axis: .categories,
            valueLabel: "Items", labels: ["Expired", "Expiring soon (30 days)", "Safe"],
            series: [ChartSeries(name: "Food", values: [3, 5, 8])], note: "", asOf: Self.now)
        let drawn = Self.render(expiry)
        #expect(!drawn.contains("Expiring so…") && drawn.contains("Expiring soon") && drawn.contains("(30 days)"))
        let long = "Fridge door shelf on the left side"
        let many = DashboardChart(
            id: .storage, title: "Food items by storage", kind: .bar, axis: .categories, valueLabel: "Items",
            labels: ["A", "B", "C", "D", "E", long], series: [ChartSeries(name: "Items", values: [1, 2, 3, 4, 5, 6])],
            note: "", asOf: Self.now)
        let slanted = Self.render(many)
        #expect(slanted.contains("<title>\(long)</title>"))
        // What is shown of it is whole words followed by "…".
        let shown = ChartGeometry.wrap(long, letters: ChartGeometry.slantLetters, lines: 1)
        #expect(shown.cut && shown.lines.count == 1 && shown.lines[0].hasSuffix("…"))
        let words = shown.lines[0].dropLast().split(separator: " ").map(String.init)
        #expect(long.split(separator: " ").prefix(words.count).map(String.init) == words && !words.isEmpty)
        #expect(slanted.contains(">\(shown.lines[0])<"))
        // Two lines where there is room, broken between words.
        let two = ChartGeometry.wrap("Expiring soon (30 days)", letters: 14, lines: 2)
        #expect(two.lines == ["Expiring soon", "(30 days)"] && !two.cut)
    }

    /// Today's bar is today so far: marked as partial, and the legend says so; a line's last
    /// segment is drawn apart. A campaign report's line (no period under way) is not.
    @Test func thePeriodUnderWayIsMarkedAsPartial() {
        let days = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"]
        var bars = DashboardChart(
            id: .signUps, title: "Sign-ups per day", kind: .bar, axis: .days, valueLabel: "New accounts",
            labels: days, series: [ChartSeries(name: "Sign-ups", values: [10, 12, 11, 3])], note: "", asOf: Self.now)
        bars.lastIsPartial = true
        let drawn = Self.render(bars)
        #expect(drawn.components(separatedBy: "bar s0 partial").count == 2, "only the last bar")
        #expect(drawn.contains("Today so far"))
        #expect(drawn.contains("2026-11-23 (today so far): 3"))
        var line = bars
        line.kind = .line
        #expect(Self.render(line).contains("line partial s0"))
        let weekly = bars.weekly()
        #expect(weekly.lastIsPartial && Self.render(weekly).contains("This week so far"))
        bars.lastIsPartial = false
        #expect(!Self.render(bars).contains("partial"))
    }

    /// The derived snapshot marks every daily and weekly chart's last period as under way.
    @Test func theSnapshotsDaysAndWeeksEndUnderWay() {
        let snapshot = DashboardSnapshot(
            tally: DashboardTally(window: DayWindow(first: 20_400), countedAt: Self.now), now: Self.now)
        for chart in snapshot.charts {
            #expect(chart.lastIsPartial == (chart.axis != .categories), "\(chart.id)")
        }
    }

    /// Revenue in three currencies: each in its own minor units, and no axis shared by two.
    @Test func moneyIsNeverTwoCurrenciesOnOneAxis() {
        let revenue = DashboardChart(
            id: .revenue, title: "Monthly recurring revenue by currency", kind: .bar, axis: .categories, unit: .cents,
            valueLabel: "Per month", labels: ["EUR", "JPY", "BHD"],
            series: [ChartSeries(name: "Per month", values: [129_900, 31_667, 1_234])], note: "", asOf: Self.now,
            labelsName: "Currency")
        let drawn = Self.render(revenue)
        #expect(!drawn.contains("<svg"), "no axis at all: a table")
        #expect(drawn.contains("1,299.00 EUR") && drawn.contains("31,667 JPY") && drawn.contains("1.234 BHD"))
    }

    /// The revenue download gives each currency's amount in its own decimals: yen whole.
    @Test func theRevenueDownloadUsesEachCurrencysDecimals() async throws {
        let panel = try await TestPanel(areas: [.dashboard], users: 300)
        defer { panel.remove() }
        try await panel.test { client in
            let cookie = try await panel.signIn(client)
            let csv = try await client.get(SiteURL.dashboardCSV(.revenue, .month).href, cookie: cookie).text
            let lines = csv.split(separator: "\r\n").map(String.init)
            let yen = lines.first { $0.hasPrefix("JPY,") }
            let euro = lines.first { $0.hasPrefix("EUR,") }
            #expect(yen != nil && euro != nil, "\(lines)")
            #expect(yen.map { $0.wholeMatch(of: /JPY,-?\d+/) != nil } == true, "\(yen ?? "")")
            #expect(euro.map { $0.wholeMatch(of: /EUR,-?\d+\.\d\d/) != nil } == true, "\(euro ?? "")")
        }
    }

    /// A card's trend line names its span and its first and last values.
    @Test func aCardsTrendLineSaysItsFirstAndLastValues() {
        let figure = DashboardFigure(
            name: "Total users", value: 1_240, previous: 1_100, format: .count, comparedWith: "than 30 days before",
            detail: "Accounts not deleted", asOf: Self.now,
            sparkline: Sparkline(values: [1_100, 1_150, 1_200, 1_240], step: .day))
        let card = HeadlineCard(figure: figure).content.renderString()
        #expect(
            card.contains(
                "role=\"img\" aria-label=\"Trend over the last 4 days: 1,100 at the start, 1,240 now (today so far)\""))
        #expect(card.contains("12.7% more than 30 days before (1,100)."))
        #expect(card.contains("<summary>Definition</summary>") && !card.contains("As of"))
    }
}
