import PushClients
import ServiceLifecycle

/// Keeps the push providers' connections open while the panel runs (APNs treats connections
/// opened and closed in quick succession as an attack) and closes them at shutdown.
struct PushClientsService: Service {
    let push: PushProviders

    func run() async throws {
        try? await gracefulShutdown()
        await push.shutdown()
    }
}
