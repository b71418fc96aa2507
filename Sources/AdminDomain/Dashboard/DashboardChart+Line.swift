import Foundation

extension DashboardChart {
    /// A line chart made outside the dashboard's tally (the reminder health page draws its
    /// hours and days with the dashboard's line chart).
    public static func line(id: ID, title: String, axis: Axis, valueLabel: String, labels: [String], series: [(name: String, values: [Int])],
                            asOf: Date, labelsName: String? = nil) -> DashboardChart {
        DashboardChart(id: id, title: title, kind: .line, axis: axis, valueLabel: valueLabel, labels: labels,
                       series: series.map { ChartSeries(name: $0.name, values: $0.values) }, note: "", asOf: asOf, labelsName: labelsName)
    }
}
