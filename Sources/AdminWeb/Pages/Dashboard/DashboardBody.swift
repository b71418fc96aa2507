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
                div(.class("stat-grid")) {
                    for figure in model.headlines { HeadlineCard(figure: figure) }
                }
            }
            section(.class("panel")) {
                h2(.id("success-criteria")) { "Success criteria" }
                CriteriaTable(criteria: model.snapshot.criteria)
            }
            section(.class("panel")) {
                h2(.id("retention")) { "Retention" }
                div(.class("stat-grid")) {
                    for figure in model.snapshot.retention { HeadlineCard(figure: figure) }
                }
                CohortHeatMap(table: model.snapshot.cohorts)
                p(.class("muted")) {
                    "Active again: any activity in the app during that week. * The week under way, counted so far. Empty cells are weeks not begun yet."
                    AsOf(date: model.snapshot.cohorts.asOf)
                }
            }
            h2(.id("charts")) { "Charts" }
            div(.class("chart-grid")) {
                for chart in model.charts { ChartFigure(chart: chart, range: model.range) }
            }
        }
    }
}

/// One headline figure with its change against the period before, in words and an arrow
/// (never colour alone).
struct HeadlineCard: HTMLComponent {
    let figure: DashboardFigure

    var content: HTMLNode {
        section(.class("stat-card")) {
            h3 { figure.name }
            p(.class("stat-value")) { Self.text(figure.value, figure.format) }
            p(.class("stat-change")) { WholeDates(text: change) }
            p(.class("stat-detail")) { figure.detail + "."; AsOf(date: figure.asOf) }
        }
    }

    private var change: String {
        let current = figure.trend.map(\.now) ?? figure.value
        guard let comparedWith = figure.comparedWith, let value = current, let previous = figure.previous else {
            return figure.comparedWith == nil ? "No earlier figure to compare with." : "Nothing to compare with."
        }
        // A figure without history of its own changes as its basis does: the card says so
        // and gives the basis's own figures, which are not the one above.
        if let trend = figure.trend {
            let arrow = value == previous ? "= " : value > previous ? "▲ " : "▼ "
            let points = String(format: "%.1f", abs(value - previous) * 100)
            return arrow + (value == previous ? "The same" : "\(points) points \(value > previous ? "higher" : "lower")")
                + " by \(trend.basis) (\(Self.text(value, figure.format)) of users now, \(Self.text(previous, figure.format)) "
                + comparedWith.replacingOccurrences(of: "than ", with: "") + "). The figure above keeps no history of its own."
        }
        let before = " \(comparedWith) (\(Self.text(previous, figure.format)))"
        if value == previous { return "= The same as" + before.replacingOccurrences(of: " than ", with: " ") }
        let arrow = value > previous ? "▲ " : "▼ "
        switch figure.format {
        case .percent:
            return arrow + String(format: "%.1f", abs(value - previous) * 100) + " points " + (value > previous ? "higher" : "lower") + before
        case .count, .decimal:
            guard previous != 0 else { return arrow + "up from none" + before }
            return arrow + Format.percent(abs(value - previous) / abs(previous)) + (value > previous ? " more" : " fewer") + before
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

/// The app's success criteria: target, current value, and whether it is met, in words.
struct CriteriaTable: HTMLComponent {
    let criteria: [SuccessCriterion]

    var content: HTMLNode {
        DataTable(
            caption: "The app's success criteria, live",
            columns: [.init("Criterion"), .init("Target", numeric: true), .init("Now", numeric: true), .init("Met"), .init("How it is counted")],
            rows: criteria.map { criterion in
                TableRow([
                    TableCell("\(criterion.code): \(criterion.title)"),
                    TableCell(criterion.target.map { (criterion.strictlyAbove ? "above " : "at least ") + HeadlineCard.text($0, criterion.format) } ?? "–"),
                    TableCell(HeadlineCard.text(criterion.value, criterion.format)),
                    TableCell(criterion.met.map { $0 ? "✓ Met" : "✗ Not met" } ?? (criterion.target == nil ? "–" : "No data yet"),
                              class: criterion.met.map { $0 ? "met" : "not-met" }),
                    TableCell(class: nil) { criterion.detail + "."; AsOf(date: criterion.asOf) },
                ])
            }).content
    }
}
