import Foundation
import Hummingbird
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// Google's OAuth token endpoint, FCM HTTP v1 and APNs, faked on 127.0.0.1 as strictly as the
/// documentation reads: signatures checked with the generated keys' public halves, paths,
/// headers and bodies checked, breaches answered with an error and listed. Plain HTTP/1.1,
/// or HTTP/2 alone over TLS with the generated server certificate.
public final class FakeProviderServer: Sendable {
    public enum Transport: Sendable {
        case plainHTTP1
        case tlsHTTP2(certificatePEM: String, keyPEM: String)
    }

    public let state: FakeProviderState
    public let port: Int
    public let baseURL: String
    private let task: Task<Void, any Error>

    private init(state: FakeProviderState, port: Int, baseURL: String, task: Task<Void, any Error>) {
        self.state = state
        self.port = port
        self.baseURL = baseURL
        self.task = task
    }

    /// Starts on a free port of 127.0.0.1 and returns once it listens.
    public static func start(_ transport: Transport = .plainHTTP1, state: FakeProviderState = FakeProviderState())
        async throws -> FakeProviderServer
    {
        let router = Router()
        FakeRoutes(state: state).add(to: router)
        var logger = Logger(label: "fake-provider")
        logger.logLevel = .critical
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), serverName: nil)
        let onRunning: @Sendable (any Channel) async -> Void = { channel in
            portSink.yield(channel.localAddress?.port ?? 0)
            portSink.finish()
        }
        let scheme: String
        let task: Task<Void, any Error>
        switch transport {
        case .plainHTTP1:
            scheme = "http"
            let app = Application(
                router: router, configuration: configuration, onServerRunning: onRunning, logger: logger)
            task = Task { try await app.runService(gracefulShutdownSignals: []) }
        case .tlsHTTP2(let certificatePEM, let keyPEM):
            scheme = "https"
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map {
                    .certificate($0)
                },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)))
            // HTTP/2 only, as APNs: a client that cannot negotiate h2 gets no answer at all.
            tls.applicationProtocols = ["h2"]
            let app = Application(
                router: router, server: try .tls(.plaintextHTTP2(), tlsConfiguration: tls),
                configuration: configuration,
                onServerRunning: onRunning, logger: logger)
            task = Task { try await app.runService(gracefulShutdownSignals: []) }
        }
        var port = 0
        for await bound in ports { port = bound }
        guard port > 0 else {
            task.cancel()
            throw FakeServerError.didNotStart
        }
        return FakeProviderServer(state: state, port: port, baseURL: "\(scheme)://127.0.0.1:\(port)", task: task)
    }

    public var tokenURI: String { "\(baseURL)/token" }

    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

enum FakeServerError: Error {
    case didNotStart
}
