import AdminDomain
import Metrics

/// Each usual-hour refresh as Prometheus figures: users built and updated, events read, rows
/// aged, peer groups, and whether the first build is still going (the job's own timer has the run).
struct UsualHourMetrics {
    var factory: any MetricsFactory = MetricsSystem.factory

    func record(_ figures: UsualHourRefresh.Figures) {
        counter("panel_usual_hour_users_total", "built").increment(by: Int64(figures.built))
        counter("panel_usual_hour_users_total", "updated").increment(by: Int64(figures.updated))
        counter("panel_usual_hour_users_total", "aged").increment(by: Int64(figures.aged))
        counter("panel_usual_hour_events_read_total", nil).increment(by: Int64(figures.eventsRead))
        Gauge(label: "panel_usual_hour_peer_groups", dimensions: [], factory: factory).record(figures.peerGroups)
        Gauge(label: "panel_usual_hour_building", dimensions: [], factory: factory).record(figures.building ? 1 : 0)
    }

    private func counter(_ label: String, _ kind: String?) -> Counter {
        Counter(label: label, dimensions: kind.map { [("kind", $0)] } ?? [], factory: factory)
    }
}
