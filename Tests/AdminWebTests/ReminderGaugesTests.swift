import AdminDomain
import Foundation
import Prometheus
import TestSupport
import Testing

@testable import AdminWeb

/// The reminder gauges as Prometheus scrapes them, from a snapshot made by hand, and the
/// example alerting rules in docs/ name only gauges the panel emits.
@Suite(.timeLimit(.minutes(20))) struct ReminderGaugesTests {
    static func emitted() -> String {
        let registry = PrometheusCollectorRegistry()
        ReminderGauges(factory: PrometheusMetricsFactory(registry: registry)).record(SnapshotsReminders.snapshot)
        return registry.emitToString()
    }

    @Test func eachFigureIsAGaugeByRange() {
        let text = Self.emitted()
        // Prometheus writes every gauge as a floating-point number ("1204.0").
        // The hand-made day: 1,204 due, 1,100 sent, 950 on time, 40 failed, 14 cancelled, 50 overdue, 600 opened.
        for (figure, value) in [
            ("due", 1_204), ("sent", 1_100), ("sent_on_time", 950), ("failed", 40), ("cancelled", 14),
            ("overdue", 50), ("opened", 600),
        ] {
            #expect(
                text.contains("panel_reminders{range=\"24h\",figure=\"\(figure)\"} \(Double(value))\n"), "\(figure)")
        }
        #expect(text.contains("panel_reminders{range=\"1h\",figure=\"due\"} 0.0\n"))
        for (quantile, value) in [("0.5", 12), ("0.9", 95), ("0.99", 3_725), ("1", 200_000)] {
            #expect(
                text.contains("panel_reminder_lateness_seconds{range=\"24h\",quantile=\"\(quantile)\"} \(value)"),
                "\(quantile)")
        }
        // 950 on time of 1,204 due less 14 cancelled; 1,100 sent of 1,140 tried.
        #expect(text.contains("panel_reminder_on_time_ratio{range=\"24h\"} \(950.0 / 1_190.0)"))
        #expect(text.contains("panel_reminder_success_ratio{range=\"24h\"} \(1_100.0 / 1_140.0)"))
        // Nothing due in the hand-made hour: nothing missed.
        #expect(text.contains("panel_reminder_on_time_ratio{range=\"1h\"} 1"))
        #expect(!text.contains("range=\"7d\""), "a range the snapshot has not counted has no gauge")
        #expect(text.contains("panel_reminder_alert{kind=\"nothing_sent\"} 1"))
        #expect(text.contains("panel_reminder_alert{kind=\"no_app_data\"} 1"))
        #expect(text.contains("panel_reminder_alert{kind=\"overdue_above_threshold\"} 0"))
        // The newest app row two hours before the snapshot.
        #expect(text.contains("panel_app_data_age_seconds 7200"))
    }

    @Test func theExampleRulesUseOnlyGaugesThePanelEmits() throws {
        let rules = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/prometheus-reminder-alerts.yml"),
            encoding: .utf8)
        let names = Set(rules.matches(of: /panel_[a-z_]+/).map { String($0.output) })
        #expect(names.count >= 6, "the rules use the gauges")
        let emitted = Self.emitted()
        for name in names {
            #expect(
                emitted.contains("\n\(name){") || emitted.contains("\n\(name) ") || emitted.hasPrefix(name),
                "\(name) is emitted")
        }
        let kinds = ReminderAlert.Kind.allCases.map(\.rawValue)
        #expect(kinds.allSatisfy { emitted.contains("panel_reminder_alert{kind=\"\($0)\"}") })
    }
}
