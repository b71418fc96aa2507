import Metrics

/// Pushes by provider and outcome, their latency, and token refreshes, for Prometheus.
enum PushMetrics {
    static func record(provider: String, outcome: PushOutcome, duration: Duration) {
        Counter(label: "push_sends_total", dimensions: [("provider", provider), ("outcome", outcome.kind)]).increment()
        Timer(label: "push_send_duration_seconds", dimensions: [("provider", provider)]).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    static func tokenRefreshed(provider: String) {
        Counter(label: "push_token_refreshes_total", dimensions: [("provider", provider)]).increment()
    }
}
