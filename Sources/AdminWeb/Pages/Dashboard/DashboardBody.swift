import AdminDomain
import Foundation
import HTMLRender

/// Everything on the dashboard that is the same for every viewer: rendered once per
/// snapshot and range (see `DashboardPageCache`).
struct DashboardBody: HTMLComponent {
    let model: DashboardModel

    var content: HTMLNode {
        div(.class("dashboard")) {
            section(.ariaLabel("Headline figures")) {
                h2(.id("vital-signs")) { "Vital signs" }
                SectionAsOf(dates: model.headlines.map(\.asOf))
                div(.class("stat-grid")) {
                    for figure in model.headlines { HeadlineCard(figure: figure) }
                }
            }
            section(.class("panel")) {
                h2(.id("success-criteria")) { "Success criteria" }
                SectionAsOf(dates: model.snapshot.criteria.map(\.asOf))
                CriteriaList(criteria: model.snapshot.criteria)
            }
            section(.class("panel")) {
                h2(.id("retention")) { "Retention" }
                SectionAsOf(dates: model.snapshot.retention.map(\.asOf) + [model.snapshot.cohorts.asOf])
                div(.class("stat-grid")) {
                    for figure in model.snapshot.retention { HeadlineCard(figure: figure) }
                }
                details(.class("cohorts")) {
                    summary { "Weekly cohorts: active again 1 to 12 weeks later" }
                    CohortHeatMap(table: model.snapshot.cohorts)
                    p(.class("muted")) {
                        "Active again: any activity in the app during that week. * The week under way, counted so far. "
                            + "Empty cells are weeks not begun yet."
                    }
                }
            }
            section(.ariaLabel("Charts")) {
                h2(.id("charts")) { "Charts" }
                SectionAsOf(dates: model.charts.map(\.asOf))
                ChartIndex(charts: model.charts)
                p(.class("swipe-hint muted")) { "The charts sit side by side: scroll sideways for the next one." }
                div(
                    .class("chart-grid"), Attribute("tabindex", "0"), .role("region"),
                    .ariaLabel("Charts, side by side: scroll sideways on a narrow screen")
                ) {
                    for chart in model.charts { ChartFigure(chart: chart, range: model.range) }
                }
            }
        }
    }
}

/// One "as of" for a section: the latest moment its figures were counted, and the earliest
/// too when some wait for the next full count.
struct SectionAsOf: HTMLComponent {
    let dates: [Date]

    var content: HTMLNode {
        let latest = dates.max()
        let earliest = dates.min()
        return p(.class("as-of-line")) {
            if let latest {
                "As of "
                AsOfTime(date: latest)
                if let earliest, earliest != latest {
                    "; figures that need a full count as of "
                    AsOfTime(date: earliest)
                }
                "."
            }
        }
    }
}

/// Links to each chart: on a phone the charts sit side by side in a row that scrolls
/// sideways, and a link brings its chart into view.
struct ChartIndex: HTMLComponent {
    let charts: [DashboardChart]

    var content: HTMLNode {
        details(.class("chart-index")) {
            summary { "Go to a chart (\(charts.count))" }
            nav(.class("chart-index"), .ariaLabel("The charts")) {
                ul {
                    for chart in charts { li { a(.href("#chart-\(chart.id.rawValue)")) { chart.title } } }
                }
            }
        }
    }
}

/// One headline figure: the number, its change against the period before in words (the
/// arrow only repeats them, and is hidden from screen readers), a small trend line, and its
/// definition behind a disclosure. The section says when it was counted.
struct HeadlineCard: HTMLComponent {
    let figure: DashboardFigure

    var content: HTMLNode {
        let change = self.change
        return section(.class("stat-card")) {
            h3 { figure.name }
            div(.class("stat-line")) {
                p(.class("stat-value")) { Self.text(figure.value, figure.format) }
                if let line = figure.sparkline { SparklineSVG(line: line, format: figure.format) }
            }
            p(.class("stat-change")) {
                if let arrow = change.arrow { span(.class("arrow"), Attribute("aria-hidden", "true")) { arrow + " " } }
                WholeDates(text: change.words)
            }
            details(.class("definition")) {
                summary { "Definition" }
                p {
                    figure.detail + "."
                    if let basis = change.basis { " " + basis }
                }
            }
        }
    }

    /// The change in a line, and what a figure without history of its own was compared by.
    private var change: (arrow: String?, words: String, basis: String?) {
        let current = figure.trend.map(\.now) ?? figure.value
        guard let comparedWith = figure.comparedWith, let value = current, let previous = figure.previous else {
            return (
                nil, figure.comparedWith == nil ? "No earlier figure to compare with." : "Nothing to compare with.", nil
            )
        }
        let arrow = value == previous ? "=" : value > previous ? "▲" : "▼"
        // A figure without history of its own changes as its basis does: the line says so
        // and the definition gives the basis's own figures, which are not the one above.
        if let trend = figure.trend {
            let points = String(format: "%.1f", abs(value - previous) * 100)
            let words =
                (value == previous ? "The same" : "\(points) points \(value > previous ? "higher" : "lower")")
                + " \(comparedWith)"
            return (
                arrow, words + ", by \(trend.basis).",
                "Compared by \(trend.basis): \(Self.text(value, figure.format)) of users now, "
                    + "\(Self.text(previous, figure.format)) "
                    + comparedWith.replacingOccurrences(of: "than ", with: "")
                    + ". The figure above keeps no history of its own."
            )
        }
        let before = " \(comparedWith) (\(Self.text(previous, figure.format)))."
        if value == previous {
            return (arrow, "The same as" + before.replacingOccurrences(of: " than ", with: " "), nil)
        }
        switch figure.format {
        case .percent:
            return (
                arrow,
                String(format: "%.1f", abs(value - previous) * 100) + " points "
                    + (value > previous ? "higher" : "lower") + before, nil
            )
        case .count, .decimal:
            guard previous != 0 else { return (arrow, "Up from none" + before, nil) }
            return (
                arrow,
                Format.percent(abs(value - previous) / abs(previous)) + (value > previous ? " more" : " fewer")
                    + before, nil
            )
        }
    }

    static func text(_ value: Double?, _ format: FigureFormat) -> String {
        guard let value, value.isFinite else { return "n/a" }
        switch format {
        case .count: return Int(value.rounded()).grouped
        case .percent: return Format.percent(value)
        case .decimal: return String(format: "%.1f", value)
        }
    }
}

/// The app's success criteria, one short card each: the value against its target, whether
/// it is met in words (the mark only repeats them), and the definition behind a disclosure.
struct CriteriaList: HTMLComponent {
    let criteria: [SuccessCriterion]

    var content: HTMLNode {
        ul(.class("criteria")) {
            for criterion in criteria {
                li(.class("criterion " + (criterion.met.map { $0 ? "met" : "not-met" } ?? "unknown"))) {
                    h3 { criterion.code + ": " + criterion.title }
                    p(.class("criterion-value")) {
                        span(.class("stat-value")) { HeadlineCard.text(criterion.value, criterion.format) }
                        " "
                        span(.class("target")) {
                            criterion.target.map {
                                "target " + (criterion.strictlyAbove ? "above " : "at least ")
                                    + HeadlineCard.text($0, criterion.format)
                            }
                                ?? "no target"
                        }
                        " "
                        span(.class("verdict")) {
                            criterion.met.map { $0 ? "✓ Met" : "✗ Not met" }
                                ?? (criterion.target == nil ? "" : "No data yet")
                        }
                    }
                    details(.class("definition")) {
                        summary { "Definition" }
                        p { criterion.detail + "." }
                    }
                }
            }
        }
    }
}
