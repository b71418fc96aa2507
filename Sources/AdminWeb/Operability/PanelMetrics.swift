import Hummingbird
import Logging
import Metrics
import Prometheus

/// Prometheus metrics on their own port, bound to 127.0.0.1 only: never on the staff port,
/// where anyone who reaches the sign-in page would reach them too.
public enum PanelMetrics {
    /// Installs the Prometheus backend for swift-metrics; once per process.
    public static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// `GET /metrics` in the text exposition format.
    public static func server(registry: PrometheusCollectorRegistry, port: Int, logger: Logger)
        -> some ApplicationProtocol
    {
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        var metricsLogger = logger
        metricsLogger[metadataKey: "server"] = "metrics"
        let logger = metricsLogger
        return Application(
            router: router,
            // Its answers carry the panel's security headers too: every response it writes does.
            server: .http1(configuration: .init(additionalChannelHandlers: [SecurityHeadersHandler(tls: false)])),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                logger.info("metrics listening on 127.0.0.1:\(channel.localAddress?.port ?? port)")
            },
            logger: logger)
    }
}
