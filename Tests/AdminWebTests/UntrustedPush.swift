import Foundation
import Logging
import PushClients
import PushFakes
import Synchronization

/// Both providers configured, with keys made for this test process, against one strict fake
/// on 127.0.0.1 that trusts none of them: the panel counts and launches to both providers
/// (it launches only to providers it has credentials for), and every send comes back a
/// credentials problem, so a campaign pauses with the reason and nothing leaves the machine.
enum UntrustedPush {
    private static let fake = Task<(FakeProviderServer, TestCredentials), any Error> {
        let server = try await FakeProviderServer.start()
        return (server, try await TestCredentials.make(tokenURI: server.tokenURI))
    }
    /// Each panel's own clients, kept for the process: the application's push service shuts
    /// them down when a test runs it, and a client freed before its shutdown stops a debug build.
    private static let kept = Mutex<[PushProviders]>([])

    static func providers() async throws -> PushProviders {
        let (server, credentials) = try await fake.value
        var logger = Logger(label: "untrusted-push")
        logger.logLevel = .critical
        let push = try await PushProviders.load(
            PushConfiguration(
                fcmServiceAccount: credentials.serviceAccountPath, fcmBaseURL: server.baseURL,
                apnsKey: credentials.apnsKeyPath, apnsKeyID: TestCredentials.apnsKeyID,
                apnsTeamID: TestCredentials.apnsTeamID,
                apnsTopic: TestCredentials.apnsTopic, apnsBaseURL: server.baseURL), logger: logger)
        kept.withLock { $0.append(push) }
        return push
    }
}
