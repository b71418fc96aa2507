import AdminDomain
import HTMLRender

/// Lines over days or weeks, one per series, each in its own colour and dash pattern so
/// that they stay apart without colour. Each x position has a hover title with every
/// series' value.
struct LineChart: HTMLComponent {
    let chart: DashboardChart

    var content: HTMLNode {
        let peak = chart.series.flatMap(\.values).max() ?? 0
        let geometry = ChartGeometry(peak: peak, unit: chart.unit)
        let count = chart.labels.count
        let slot = ChartGeometry.plotWidth / Double(max(count, 1))
        func x(_ index: Int) -> String { ChartGeometry.number(ChartGeometry.left + slot * (Double(index) + 0.5)) }
        return ChartSVG(chart: chart) {
            geometry.axes(
                labels: chart.labels, axis: chart.axis, valueLabel: chart.valueLabel, axisName: chart.axisName)
            for (number, series) in chart.series.enumerated() {
                // One polyline for each run of positions with a value; a run of one is a dot.
                for run in Self.runs(count: series.values.count, missing: series.missing) {
                    // The period under way ends the line as a segment of its own, drawn as partial.
                    let partial = chart.lastIsPartial && run.last == count - 1
                    let settled = partial ? Array(run.dropLast()) : run
                    if settled.count == 1, let only = settled.first {
                        shape(
                            "circle",
                            [
                                .class("dot s\(number % ChartSVG.colours)"), Attribute("cx", x(only)),
                                Attribute("cy", ChartGeometry.number(geometry.y(series.values[only]))),
                                Attribute("r", "3"),
                            ])
                    } else if settled.count > 1 {
                        shape(
                            "polyline",
                            [
                                .class("line s\(number % ChartSVG.colours)"), Attribute("fill", "none"),
                                Attribute(
                                    "points",
                                    settled.map { "\(x($0)),\(ChartGeometry.number(geometry.y(series.values[$0])))" }
                                        .joined(separator: " ")),
                            ])
                    }
                    if partial {
                        shape(
                            "polyline",
                            [
                                .class("line partial s\(number % ChartSVG.colours)"), Attribute("fill", "none"),
                                Attribute(
                                    "points",
                                    run.suffix(2).map {
                                        "\(x($0)),\(ChartGeometry.number(geometry.y(series.values[$0])))"
                                    }
                                    .joined(separator: " ")),
                            ])
                        if run.count == 1 {
                            shape(
                                "circle",
                                [
                                    .class("dot partial s\(number % ChartSVG.colours)"), Attribute("cx", x(count - 1)),
                                    Attribute("cy", ChartGeometry.number(geometry.y(series.values[count - 1]))),
                                    Attribute("r", "3"),
                                ])
                        }
                    }
                }
            }
            for index in 0..<count {
                shape(
                    "rect",
                    [
                        .class("hover"),
                        Attribute("x", ChartGeometry.number(ChartGeometry.left + slot * Double(index))),
                        Attribute("y", ChartGeometry.number(ChartGeometry.top)),
                        Attribute("width", ChartGeometry.number(slot)),
                        Attribute("height", ChartGeometry.number(ChartGeometry.plotHeight)),
                    ],
                    title: chart.labels[index]
                        + (chart.lastIsPartial && index == count - 1
                            ? " (\(ChartFigure.partialWords(chart).lowercased()))" : "")
                        + ": "
                        + chart.series.map {
                            "\($0.name) \($0.missing.contains(index) ? "n/a" : geometry.valueText($0.values[index]))"
                        }.joined(separator: ", "))
            }
        }.content
    }

    /// The positions with a value, in runs of consecutive ones.
    static func runs(count: Int, missing: Set<Int>) -> [[Int]] {
        var runs: [[Int]] = []
        var current: [Int] = []
        for index in 0..<count {
            if missing.contains(index) {
                if !current.isEmpty { runs.append(current) }
                current = []
            } else {
                current.append(index)
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}

/// Bars over days, weeks or categories; with several series, stacked (each series a
/// segment of the bar, in the series' colour, with its own hover title).
struct BarChart: HTMLComponent {
    let chart: DashboardChart

    var content: HTMLNode {
        let count = chart.labels.count
        let totals = (0..<count).map { index in chart.series.reduce(0) { $0 + $1.values[index] } }
        let geometry = ChartGeometry(peak: totals.max() ?? 0, unit: chart.unit)
        let slot = ChartGeometry.plotWidth / Double(max(count, 1))
        let gap = count > 60 ? 0.0 : min(8, slot * 0.2)
        var segments: [(index: Int, series: Int, below: Int, value: Int)] = []
        for index in 0..<count {
            var below = 0
            for (number, series) in chart.series.enumerated() where series.values[index] > 0 {
                segments.append((index, number, below, series.values[index]))
                below += series.values[index]
            }
        }
        return ChartSVG(chart: chart) {
            geometry.axes(
                labels: chart.labels, axis: chart.axis, valueLabel: chart.valueLabel, axisName: chart.axisName)
            for segment in segments {
                let partial = chart.lastIsPartial && segment.index == count - 1
                shape(
                    "rect",
                    [
                        .class("bar s\(segment.series % ChartSVG.colours)" + (partial ? " partial" : "")),
                        Attribute(
                            "x", ChartGeometry.number(ChartGeometry.left + slot * Double(segment.index) + gap / 2)),
                        Attribute("y", ChartGeometry.number(geometry.y(segment.below + segment.value))),
                        Attribute("width", ChartGeometry.number(max(slot - gap, 0.5))),
                        Attribute(
                            "height",
                            ChartGeometry.number(
                                max(geometry.y(segment.below) - geometry.y(segment.below + segment.value), 0.5))),
                    ],
                    title: chart.labels[segment.index]
                        + (partial ? " (\(ChartFigure.partialWords(chart).lowercased()))" : "")
                        + (chart.series.count > 1 ? ", \(chart.series[segment.series].name)" : "")
                        + ": " + geometry.valueText(segment.value))
            }
        }.content
    }
}

/// The SVG element every chart draws into, named for screen readers (the table under the
/// chart has the numbers).
struct ChartSVG: HTMLComponent {
    static let colours = 6
    let chart: DashboardChart
    let shapes: [HTMLNode]

    init(chart: DashboardChart, @HTMLBuilder shapes: () -> [HTMLNode]) {
        self.chart = chart
        self.shapes = shapes()
    }

    var content: HTMLNode {
        let height = ChartGeometry.height + ChartGeometry.extraBottom(chart.labels, axis: chart.axis)
        return element(
            "svg",
            [
                Attribute("viewBox", "0 0 \(Int(ChartGeometry.width)) \(Int(height))"), .role("img"),
                .ariaLabel(
                    "\(chart.title)"
                        + (chart.lastIsPartial ? "; the last \(chart.axis == .weeks ? "week" : "day") is so far" : "")
                        + "; the table below the chart has the same numbers"),
                Attribute("xmlns", "http://www.w3.org/2000/svg"),
            ]
        ) { shapes }
    }
}
