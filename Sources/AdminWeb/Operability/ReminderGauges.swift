import AdminDomain
import Foundation
import Metrics

/// The reminder figures as Prometheus gauges, set after each refresh of the reminder health
/// monitor; docs/prometheus-reminder-alerts.yml alerts on them.
struct ReminderGauges {
    /// The counts by name, as `panel_reminders{range,figure}`.
    static var figures: [(name: String, value: KeyPath<ReminderFigures, Int>)] {
        [
            ("due", \.due), ("sent", \.sent), ("sent_on_time", \.sentOnTime), ("failed", \.failed),
            ("cancelled", \.cancelled), ("overdue", \.overdue), ("opened", \.opened),
        ]
    }

    var factory: any MetricsFactory = MetricsSystem.factory

    func record(_ snapshot: ReminderHealthSnapshot) {
        for range in ReminderRange.allCases {
            guard let figures = snapshot.report(range)?.figures else { continue }
            for figure in Self.figures {
                gauge("panel_reminders", [("range", range.rawValue), ("figure", figure.name)]).record(
                    figures[keyPath: figure.value])
            }
            // No lateness (nothing sent with readable times) reads as 0 late, not as a gap.
            let lateness = figures.lateness
            for (quantile, value) in [
                ("0.5", lateness?.p50), ("0.9", lateness?.p90), ("0.99", lateness?.p99), ("1", lateness?.max),
            ] {
                gauge("panel_reminder_lateness_seconds", [("range", range.rawValue), ("quantile", quantile)]).record(
                    value ?? 0)
            }
            // Nothing to divide by reads as 1 (nothing missed): an alert on "< 0.9" then holds
            // only when reminders were meant to go and did not; the due count says how many.
            gauge("panel_reminder_on_time_ratio", [("range", range.rawValue)]).record(figures.onTimeShare ?? 1)
            gauge("panel_reminder_success_ratio", [("range", range.rawValue)]).record(figures.successRate ?? 1)
        }
        let holding = Set(snapshot.alerts.map(\.kind))
        for kind in ReminderAlert.Kind.allCases {
            gauge("panel_reminder_alert", [("kind", kind.rawValue)]).record(holding.contains(kind) ? 1 : 0)
        }
        if let newest = snapshot.newestAppData {
            gauge("panel_app_data_age_seconds", []).record(max(0, snapshot.asOf.timeIntervalSince(newest)))
        }
        gauge("panel_reminder_snapshot_timestamp_seconds", []).record(snapshot.asOf.timeIntervalSince1970)
    }

    private func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
        Gauge(label: label, dimensions: dimensions, factory: factory)
    }
}
