import Foundation

/// What the dashboard shows, derived from a tally at one moment: plain values, cheap to
/// read on every request. Daily series hold the last 365 days and weekly ones the last 53
/// weeks; a page shows the part its range asks for.
public struct DashboardSnapshot: Sendable, Equatable {
    /// The last full count, and the last refresh (which read only new rows when it was not
    /// a full count).
    public var countedAt: Date
    public var updatedAt: Date
    /// Today's UTC date, 'YYYY-MM-DD'.
    public var today: String
    public var headlines: [DashboardRange: [DashboardFigure]]
    public var charts: [DashboardChart]
    public var cohorts: CohortTable
    public var retention: [DashboardFigure]
    public var criteria: [SuccessCriterion]
    /// Users in each activity bucket at the last full count: the activity lists' own number.
    public var usersByActivity: [ActivityBucket: Int]
    public var totalUsers: Int

    public func chart(_ id: DashboardChart.ID) -> DashboardChart? {
        charts.first { $0.id == id }
    }
}

/// The page's range selector.
public enum DashboardRange: Int, CaseIterable, Sendable, Comparable {
    case week = 7
    case month = 30
    case quarter = 90
    case year = 365

    public static let standard = DashboardRange.month

    public var days: Int { rawValue }
    /// Weeks the weekly charts show for this range.
    public var weeks: Int { max(2, (rawValue + 6) / 7) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

public enum FigureFormat: Sendable, Equatable {
    case count, percent, decimal
}

/// One headline number and the same number for the period before.
public struct DashboardFigure: Sendable, Equatable {
    public var name: String
    /// nil when there is nothing to divide by (no users, no sign-ups old enough).
    public var value: Double?
    public var previous: Double?
    public var format: FigureFormat
    /// "than 30 days before", "than yesterday"; nil when there is no earlier figure.
    public var comparedWith: String?
    /// When `value` has no history of its own (a user's plan, their last activity), the
    /// change is worked out from another count of the same thing that has one: that count
    /// now (against `previous`) and what it is.
    public var trend: Trend?
    public var detail: String
    public var asOf: Date
    /// Its recent values for the card's trend line; nil for a figure that keeps no history.
    public var sparkline: Sparkline? = nil
}

public struct Trend: Sendable, Equatable {
    public var now: Double?
    public var basis: String
}

public struct ChartSeries: Sendable, Equatable {
    public var name: String
    public var values: [Int]
    /// Positions with no value (a share of nothing): a line chart leaves a gap there rather
    /// than drawing a 0 that reads as a failure. Their entry in `values` is 0.
    public var missing: Set<Int> = []
}

/// The data of one chart: labels along the x axis and one or more series over them.
public struct DashboardChart: Sendable, Equatable, Identifiable {
    public enum Kind: Sendable, Equatable { case line, bar, stackedBar }
    public enum Axis: Sendable, Equatable { case days, weeks, categories }
    /// `cents` is an amount in the minor units of the currency its label names (yen for JPY).
    public enum Unit: Sendable, Equatable { case count, cents }

    public enum ID: String, CaseIterable, Sendable {
        case signUps = "sign-ups"
        case activeUsers = "active-users"
        case itemsAdded = "items-added"
        case expiryStatus = "expiry-status"
        case foodWasted = "food-wasted"
        case categories = "food-categories"
        case storage = "food-storage"
        case documentTypes = "document-types"
        case premiumUsers = "premium-users"
        case upgrades
        case revenue = "monthly-revenue"
        case devices
        case pushes = "campaign-pushes"
        /// A campaign report's, not the dashboard's.
        case campaignConversions = "campaign-conversions"
    }

    public var id: ID
    public var title: String
    public var kind: Kind
    public var axis: Axis
    public var unit: Unit = .count
    /// What the values count ("users", "items"), for the y axis.
    public var valueLabel: String
    public var labels: [String]
    public var series: [ChartSeries]
    /// How the numbers are defined, shown under the chart.
    public var note: String
    public var asOf: Date
    /// What the labels along the x axis are, for a chart of categories.
    public var labelsName: String? = nil
    /// The last day or week is under way (today so far, this week so far): drawn as partial.
    public var lastIsPartial = false

    /// The x axis's name.
    public var axisName: String {
        switch axis {
        case .days: "Day (UTC)"
        case .weeks: "Week, from Monday (UTC)"
        case .categories: labelsName ?? ""
        }
    }

    /// The last `count` labels and values (days and weeks); the whole chart otherwise.
    public func suffix(_ count: Int) -> DashboardChart {
        guard axis != .categories, count < labels.count else { return self }
        var part = self
        part.labels = Array(labels.suffix(count))
        part.series = series.map {
            ChartSeries(
                name: $0.name, values: Array($0.values.suffix(count)),
                missing: Set($0.missing.map { $0 - (labels.count - count) }.filter { $0 >= 0 }))
        }
        return part
    }

    /// A year of daily bars would blur into one another: at 365 days bar charts show weeks.
    public func slice(for range: DashboardRange) -> DashboardChart {
        switch axis {
        case .days where range == .year && kind != .line: suffix(range.days).weekly()
        case .days: suffix(range.days)
        case .weeks: suffix(range.weeks)
        case .categories: self
        }
    }

    /// The days summed into weeks from Monday, labelled "Week of YYYY-MM-DD". A first week
    /// whose Monday the days do not reach is left out, so that every bar but the last (this
    /// week so far) is a whole week.
    public func weekly() -> DashboardChart {
        guard axis == .days else { return self }
        var weekLabels: [String] = []
        var sums: [[Int]] = series.map { _ in [] }
        var currentWeek: Int?
        for (index, label) in labels.enumerated() {
            guard let date = SQLiteTime.date(label) else { continue }
            let day = TimestampBytes.day(ofSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
            let week = DeriveContext.weekStart(day)
            if week != currentWeek {
                if currentWeek == nil && week != day { continue }
                currentWeek = week
                weekLabels.append("Week of " + SQLiteTime.dayString(daysSinceEpoch: Int64(week)))
                for number in sums.indices { sums[number].append(0) }
            }
            for number in sums.indices { sums[number][sums[number].count - 1] += series[number].values[index] }
        }
        var weekly = self
        weekly.axis = .weeks
        weekly.title = title.replacingOccurrences(of: " per day", with: " per week")
        weekly.labels = weekLabels
        weekly.series = zip(series, sums).map { ChartSeries(name: $0.name, values: $1) }
        weekly.note = note + " Summed by week from Monday; the last week is so far."
        return weekly
    }

    public var isEmpty: Bool { series.allSatisfy { $0.values.allSatisfy { $0 == 0 } } }
}

/// Weekly sign-up cohorts and the share of each active again in the weeks after.
public struct CohortTable: Sendable, Equatable {
    public struct Cohort: Sendable, Equatable {
        /// The Monday the cohort's week began, 'YYYY-MM-DD'.
        public var weekStart: String
        public var users: Int
        /// Weeks 1 to 12 after the sign-up week: nil for a week not begun yet or an empty cohort.
        public var shares: [Double?]
        /// The week (0 for week 1) under way today, counted so far; nil when none is.
        public var weekUnderWay: Int?
    }

    public static let weeksAfter = 12
    public var cohorts: [Cohort]
    public var asOf: Date
}

/// One of the app's success criteria with its target.
public struct SuccessCriterion: Sendable, Equatable {
    public var code: String
    public var title: String
    public var target: Double?
    /// "above" the target rather than "at least" it.
    public var strictlyAbove = false
    public var value: Double?
    public var format: FigureFormat
    public var detail: String
    public var asOf: Date

    /// nil when there is no value yet, or no target.
    public var met: Bool? {
        guard let target, let value else { return nil }
        return strictlyAbove ? value > target : value >= target
    }
}
