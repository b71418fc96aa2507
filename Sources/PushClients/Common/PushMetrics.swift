import Metrics

/// Pushes by provider and outcome, their latency, and token refreshes, for Prometheus.
enum PushMetrics {
    /// A whole send, token included, counted by its outcome.
    static func measured(provider: String, _ send: () async -> PushOutcome) async -> PushOutcome {
        let started = ContinuousClock.now
        let outcome = await send()
        record(provider: provider, outcome: outcome, duration: ContinuousClock.now - started)
        return outcome
    }

    static func record(provider: String, outcome: PushOutcome, duration: Duration) {
        Counter(label: "push_sends_total", dimensions: [("provider", provider), ("outcome", outcome.kind)]).increment()
        Timer(label: "push_send_duration_seconds", dimensions: [("provider", provider)]).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    static func tokenRefreshed(provider: String) {
        Counter(label: "push_token_refreshes_total", dimensions: [("provider", provider)]).increment()
    }
}
