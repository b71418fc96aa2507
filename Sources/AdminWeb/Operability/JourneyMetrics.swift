import AdminDomain
import Metrics

/// Each journeys tick as Prometheus figures: entries by what became of them at once, and the
/// longest evaluation of one journey (the periodic job's own timer has the whole tick).
struct JourneyMetrics {
    var factory: any MetricsFactory = MetricsSystem.factory

    func record(_ tick: JourneyRunner.Tick) {
        counter("panel_journey_entries_total", "entered").increment(by: Int64(tick.outcome.entered))
        counter("panel_journey_entries_total", "reentry_refused").increment(by: Int64(tick.outcome.reentryRefused))
        counter("panel_journey_entries_total", "expired").increment(by: Int64(tick.expired))
        counter("panel_journey_deliveries_total", nil).increment(by: Int64(tick.outcome.deliveries))
        Gauge(label: "panel_journeys_active", dimensions: [], factory: factory).record(tick.journeys)
        Metrics.Timer(label: "panel_journey_evaluation_seconds", dimensions: [], factory: factory).record(
            duration: tick.longest)
    }

    private func counter(_ label: String, _ outcome: String?) -> Counter {
        Counter(label: label, dimensions: outcome.map { [("outcome", $0)] } ?? [], factory: factory)
    }
}
