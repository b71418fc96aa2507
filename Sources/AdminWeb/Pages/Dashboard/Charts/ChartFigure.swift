import AdminDomain
import Foundation
import HTMLRender

/// One chart as the page shows it: its title, a legend that names the colours, the drawing
/// (or a sentence when there is nothing to draw), how the numbers are defined and when
/// they were counted, the same numbers as a table, and a CSV link.
struct ChartFigure: HTMLComponent {
    let chart: DashboardChart
    let range: DashboardRange

    init(chart: DashboardChart, range: DashboardRange) {
        // Categories are what the app stored: their direction overrides and controls are
        // shown in the drawing, its titles and the table, never obeyed.
        var shown = chart
        if chart.axis == .categories { shown.labels = chart.labels.map { UserText.visible($0) } }
        self.chart = shown
        self.range = range
    }

    var content: HTMLNode {
        let geometry = ChartGeometry(peak: 0, unit: chart.unit)
        return section(.class("panel chart-panel"), .id("chart-\(chart.id.rawValue)")) {
            h3 { chart.title }
            figure(.class("chart")) {
                if chart.isEmpty {
                    p(.class("empty-chart")) { "Nothing to show for this period yet." }
                } else if chart.unit == .cents {
                    // Money: each currency on a line of its own, never drawn on one axis.
                    MoneyTable(chart: chart)
                } else {
                    if chart.series.count > 1 || chart.lastIsPartial {
                        ul(.class("legend")) {
                            if chart.series.count > 1 {
                                for (number, series) in chart.series.enumerated() {
                                    li {
                                        span(
                                            .class("swatch s\(number % ChartSVG.colours)"),
                                            Attribute("aria-hidden", "true"))
                                        series.name
                                    }
                                }
                            }
                            if chart.lastIsPartial {
                                li(.class("partial-key")) {
                                    span(
                                        .class("swatch partial " + (chart.kind == .line ? "dashed" : "hatched")),
                                        Attribute("aria-hidden", "true"))
                                    Self.partialWords(chart) + (chart.kind == .line ? " (dashed)" : " (lighter)")
                                }
                            }
                        }
                    }
                    switch chart.kind {
                    case .line: LineChart(chart: chart)
                    case .bar, .stackedBar: BarChart(chart: chart)
                    }
                }
            }
            details(.class("chart-details")) {
                summary { "Definition and numbers" }
                p(.class("muted")) { chart.note }
                if chart.unit != .cents { ChartTable(chart: chart, geometry: geometry) }
                p(.class("chart-links")) {
                    a(.href(SiteURL.dashboardCSV(chart.id, range).href)) {
                        "Download \(chart.title.lowercased()) as CSV"
                    }
                }
            }
        }
    }

    /// What the last day or week of a chart is while it is under way.
    static func partialWords(_ chart: DashboardChart) -> String {
        chart.axis == .weeks ? "This week so far" : "Today so far"
    }
}

/// Monthly amounts per currency, each in its own minor units and never added together or
/// set on a common axis: a table, the biggest first.
struct MoneyTable: HTMLComponent {
    let chart: DashboardChart

    var content: HTMLNode {
        div(
            .class("table-wrap"), Attribute("tabindex", "0"), .role("region"), .ariaLabel("\(chart.title): the amounts")
        ) {
            table(.class("chart-data money")) {
                caption { "Each currency on its own; amounts are not converted" }
                thead {
                    tr {
                        th(.scope("col")) { chart.labelsName ?? "Currency" }
                        for series in chart.series { th(.scope("col"), .class("num")) { series.name } }
                    }
                }
                tbody {
                    for index in chart.labels.indices {
                        tr {
                            th(.scope("row")) { element("bdi", []) { chart.labels[index] } }
                            for series in chart.series {
                                td(.class("num")) {
                                    Format.money(cents: series.values[index], currency: chart.labels[index])
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A chart's numbers as a plain table: a row heading and a number a series, newest first
/// for days and weeks. Lighter than `DataTable` (a chart has up to 365 rows, on a page
/// many open at once); labels are isolated from the text around them like all app text.
struct ChartTable: HTMLComponent {
    let chart: DashboardChart
    let geometry: ChartGeometry

    var content: HTMLNode {
        let rows = chart.axis == .categories ? Array(chart.labels.indices) : Array(chart.labels.indices.reversed())
        return div(
            .class("table-wrap"), Attribute("tabindex", "0"), .role("region"), .ariaLabel("\(chart.title): the numbers")
        ) {
            table(.class("chart-data")) {
                caption { chart.title }
                thead {
                    tr {
                        th(.scope("col")) { chart.axis == .categories ? "" : chart.axis == .days ? "Day" : "Week" }
                        for series in chart.series {
                            th(.scope("col"), .class("num")) {
                                chart.series.count == 1 ? chart.valueLabel : series.name
                            }
                        }
                    }
                }
                tbody {
                    for index in rows {
                        tr {
                            th(.scope("row")) { element("bdi", []) { chart.labels[index] } }
                            for series in chart.series {
                                td(.class("num")) {
                                    chart.unit == .cents
                                        ? Format.money(cents: series.values[index], currency: chart.labels[index])
                                        : geometry.valueText(series.values[index])
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// "as of 12:04:31 UTC", machine-readable too.
struct AsOf: HTMLComponent {
    let date: Date

    var content: HTMLNode {
        span(.class("as-of")) {
            "As of "
            AsOfTime(date: date)
            "."
        }
    }
}

/// Weekly sign-up cohorts against the weeks after: each cell says its share in words, and
/// its shade (darker is more) only repeats it.
struct CohortHeatMap: HTMLComponent {
    let table: CohortTable

    var content: HTMLNode {
        div(
            .class("table-wrap"), Attribute("tabindex", "0"), .role("region"),
            .ariaLabel("Retention by weekly sign-up cohort")
        ) {
            HTMLRender.table(.class("heat-map")) {
                caption { "Share of each week's sign-ups active again 1 to 12 weeks later" }
                thead {
                    tr {
                        th(.scope("col")) { "Sign-up week" }
                        th(.scope("col"), .class("num")) { "Users" }
                        for week in 1...CohortTable.weeksAfter {
                            th(.scope("col"), .class("num"), .title("Week \(week) after the sign-up week")) {
                                "W\(week)"
                            }
                        }
                    }
                }
                tbody {
                    for cohort in table.cohorts.reversed() {
                        tr {
                            th(.scope("row")) { cohort.weekStart }
                            td(.class("num")) { cohort.users.grouped }
                            for (index, share) in cohort.shares.enumerated() {
                                if let share {
                                    let underWay = cohort.weekUnderWay == index
                                    td(
                                        .class(
                                            "num heat "
                                                + "heat-\(min(9, Int(share * 10)))" + (underWay ? " under-way" : "")),
                                        .title(
                                            "Week of \(cohort.weekStart), week \(index + 1): \(Format.percent(share)) "
                                                + "of \(cohort.users.grouped) users"
                                                + (underWay ? ", so far (the week is under way)" : ""))
                                    ) {
                                        Format.percent(share, decimals: 0) + (underWay ? "*" : "")
                                    }
                                } else {
                                    td(.class("num heat-none")) { span(.class("visually-hidden")) { "not yet" } }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
