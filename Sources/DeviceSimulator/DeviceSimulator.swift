import Foundation
import GRDB
import Logging
import PushFakes
import ServiceLifecycle

/// The demo's phones: fake FCM and APNs on 127.0.0.1 that the panel's real clients talk to
/// (with generated credentials, APNs over TLS and HTTP/2 as Apple's), and apps that confirm
/// what they got by writing `push_receipts` into the demo database, as the backend would:
/// most pushes are received a second or three after the provider accepted them, some are
/// opened a few seconds later, more often near the user's habitual hour (`DemoReceipts`);
/// some who open go on to add an item (`DemoGoalEvents`).
/// Nothing here ever reaches a real device.
public final class DeviceSimulator: Service, Sendable {
    public let provider: FakeProviderServer
    public let credentials: TestCredentials
    let databasePath: String
    let logger: Logger

    /// Where the panel's clients should send, and with which credentials.
    public var fcmServiceAccount: String { credentials.serviceAccountPath }
    public var apnsKey: String { credentials.apnsKeyPath }
    public var caFile: String { credentials.caCertificatePath }
    public var baseURL: String { provider.baseURL }
    public static let apnsKeyID = TestCredentials.apnsKeyID
    public static let apnsTeamID = TestCredentials.apnsTeamID
    public static let apnsTopic = TestCredentials.apnsTopic

    private init(provider: FakeProviderServer, credentials: TestCredentials, databasePath: String, logger: Logger) {
        self.provider = provider
        self.credentials = credentials
        self.databasePath = databasePath
        self.logger = logger
    }

    public static func start(databasePath: String, logger: Logger) async throws -> DeviceSimulator {
        let draft = try await TestCredentials.make(tokenURI: "https://127.0.0.1/token")
        let server = try await FakeProviderServer.start(
            .tlsHTTP2(certificatePEM: draft.serverCertificatePEM, keyPEM: draft.serverKeyPEM))
        let credentials = try draft.rewritingTokenURI(server.tokenURI)
        try await server.state.trust(credentials, tokenURI: server.tokenURI)
        return DeviceSimulator(provider: server, credentials: credentials, databasePath: databasePath, logger: logger)
    }

    /// Writes receipts for what the fake accepted until the service group stops, then stops
    /// the fake and removes the generated credentials.
    public func run() async throws {
        var receipts = DemoReceipts(databasePath: databasePath)
        var goals = DemoGoalEvents()
        do {
            while !Task.isShuttingDownGracefully, !Task.isCancelled {
                let accepted = await provider.state.deliveryIDs.keys
                do {
                    let opened = try await receipts.tick(accepted: accepted, now: Date())
                    let queue = try receipts.openQueue()
                    // GRDB's synchronous reads and writes, off the cooperative threads.
                    try await Self.offThePool { [goals] in
                        var goals = goals
                        try goals.tick(opened: opened, now: Date(), in: queue)
                        return goals
                    }.map { goals = $0 }
                } catch {
                    logger.warning("the device simulator could not write receipts", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        await provider.stop()
        credentials.remove()
    }

    /// Runs `work` on a thread of its own and returns its result.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T? {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<T?, any Error>) in
            Thread.detachNewThread {
                do { done.resume(returning: try work()) } catch { done.resume(throwing: error) }
            }
        }
    }
}
