import AdminDomain
import Foundation

/// The figures as CSV: one line overall, then one a kind, a number of days before and a set
/// of platforms. The kinds are text from the app's rows: `CSV.line` defuses them like any cell.
extension RemindersModel {
    static let csvHeader = [
        "range", "split", "group", "due", "sent", "sent_on_time", "on_time_share", "lateness_p50_seconds",
        "lateness_p90_seconds", "lateness_p99_seconds", "lateness_max_seconds", "lateness_count", "failed",
        "success_rate", "cancelled", "overdue", "waiting", "opened", "opened_share", "sent_time_unreadable",
        "sent_before_scheduled",
    ]

    var csvRows: [[String]] {
        guard let report else { return [] }
        func line(_ split: String, _ group: String, _ figures: ReminderFigures) -> [String] {
            [
                range.rawValue, split, group, String(figures.due), String(figures.sent), String(figures.sentOnTime),
                Self.ratio(figures.onTimeShare),
                Self.number(figures.lateness?.p50), Self.number(figures.lateness?.p90),
                Self.number(figures.lateness?.p99),
                Self.number(figures.lateness?.max), String(figures.lateness?.count ?? 0), String(figures.failed),
                Self.ratio(figures.successRate),
                String(figures.cancelled), String(figures.overdue), String(figures.waiting), String(figures.opened),
                Self.ratio(figures.openedShare),
                String(figures.sentTimeUnreadable), String(figures.sentBeforeScheduled),
            ]
        }
        return [line("all", "all", report.figures)]
            + byKind.map { line("kind", $0.label, $0.figures) }
            + report.byDaysBefore.sorted { ($0.key ?? .max) < ($1.key ?? .max) }.map {
                line("days_before", $0.key.map(String.init) ?? "not a number", $0.value)
            }
            + ReminderHealthReport.Platforms.allCases.compactMap { platforms in
                report.byPlatforms[platforms].map { line("platforms", platforms.rawValue, $0) }
            }
    }

    /// Empty when there is nothing to divide by; six decimals otherwise, locale-free.
    static func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.6f", $0) } ?? ""
    }

    static func number(_ value: Int64?) -> String {
        value.map(String.init) ?? ""
    }
}
