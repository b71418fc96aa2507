import AsyncHTTPClient
import Foundation
import Logging
import PushClients
import PushFakes
import Synchronization

/// A fake provider on 127.0.0.1 with freshly made keys, and both real clients pointed at it.
struct PushFixture {
    let server: FakeProviderServer
    let credentials: TestCredentials
    let client: HTTPClient
    let fcm: FCMClient
    let apns: APNsClient
    let clock: TestClock

    var state: FakeProviderState { server.state }

    static func start(_ transport: Transport = .plain, timeout: Duration = .seconds(10)) async throws -> PushFixture {
        let state = FakeProviderState()
        let server: FakeProviderServer
        let credentials: TestCredentials
        switch transport {
        case .plain:
            server = try await FakeProviderServer.start(.plainHTTP1, state: state)
            credentials = try await TestCredentials.make(tokenURI: server.tokenURI)
        case .tls:
            // The certificate must exist before the server: the token address is set after.
            let draft = try await TestCredentials.make(tokenURI: "https://127.0.0.1/token")
            server = try await FakeProviderServer.start(
                .tlsHTTP2(certificatePEM: draft.serverCertificatePEM, keyPEM: draft.serverKeyPEM), state: state)
            credentials = try draft.rewritingTokenURI(server.tokenURI)
        }
        try await state.trust(credentials, tokenURI: server.tokenURI)
        let client = try PushHTTPClients.make(
            extraCAFile: transport == .tls ? credentials.caCertificatePath : nil,
            connectTimeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
        let clock = TestClock()
        let now: @Sendable () -> Date = { clock.now }
        let fcm = await FCMClient(
            account: try ServiceAccount(contentsOf: credentials.serviceAccountPath), baseURL: server.baseURL,
            client: client, timeout: timeout, now: now, logger: Logger(label: "test"))
        let apns = await APNsClient(
            credentials: try APNsCredentials(
                keyPath: credentials.apnsKeyPath, keyID: TestCredentials.apnsKeyID,
                teamID: TestCredentials.apnsTeamID, topic: TestCredentials.apnsTopic),
            baseURL: server.baseURL, client: client, timeout: timeout, now: now)
        return PushFixture(server: server, credentials: credentials, client: client, fcm: fcm, apns: apns, clock: clock)
    }

    enum Transport { case plain, tls }

    /// Starts a fixture, runs `body` with it and awaits its stop whether `body` returns or throws:
    /// a test's teardown ends before the test does.
    static func with<T>(
        _ transport: Transport = .plain, timeout: Duration = .seconds(10),
        _ body: (PushFixture) async throws -> T
    ) async throws -> T {
        let fixture = try await start(transport, timeout: timeout)
        do {
            let value = try await body(fixture)
            await fixture.stop()
            return value
        } catch {
            await fixture.stop()
            throw error
        }
    }

    func stop() async {
        try? await client.shutdown()
        await server.stop()
        credentials.remove()
    }

    static let apnsToken = String(repeating: "ab12", count: 16)

    static func message(token: String, platform: PushPlatform = .android, id: String = "d-1-1", dryRun: Bool = false)
        -> PushMessage
    {
        PushMessage(
            deliveryID: id, token: token, platform: platform, title: "Milk expires \"tomorrow\" <b>",
            body: "Ünïcode 🥛 & \u{202E}reversed", deepLink: "expirytracker://items/expiring",
            timeToLive: .seconds(3600), dryRun: dryRun)
    }
}

/// The clients' clock, which a test moves forward.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
