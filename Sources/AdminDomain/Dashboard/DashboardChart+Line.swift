import Foundation

extension DashboardChart {
    /// A line chart made outside the dashboard's tally (the reminder health page draws its
    /// hours and days with the dashboard's line chart).
    /// A nil value is a gap in its line.
    public static func line(
        id: ID, title: String, axis: Axis, valueLabel: String, labels: [String],
        series: [(name: String, values: [Int?])],
        asOf: Date, labelsName: String? = nil
    ) -> DashboardChart {
        DashboardChart(
            id: id, title: title, kind: .line, axis: axis, valueLabel: valueLabel, labels: labels,
            series: series.map { named in
                ChartSeries(
                    name: named.name, values: named.values.map { $0 ?? 0 },
                    missing: Set(named.values.indices.filter { named.values[$0] == nil }))
            }, note: "", asOf: asOf, labelsName: labelsName)
    }
}
