import ArgumentParser
import Foundation
import Logging
import PushClients
import PushFakes

/// The real FCM and APNs clients against the strict fake providers in the same process, on
/// 127.0.0.1: pushes per second and latency. The fake checks every request (and shares the
/// two cores), so the figure is a floor for the client alone.
struct PushBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Pushes/s of the FCM and APNs clients against a local fake, over HTTP/1.1 and over HTTP/2 with TLS.")

    enum Provider: String, ExpressibleByArgument, CaseIterable { case fcm, apns }
    enum Transport: String, ExpressibleByArgument, CaseIterable { case plain, tls }

    @Option(help: "fcm or apns; both by default.")
    var provider: Provider?

    @Option(help: "plain (HTTP/1.1) or tls (HTTP/2 over TLS); both by default.")
    var transport: Transport?

    @Option(help: "Sends in flight at once.")
    var concurrency = 128

    @Option(help: "Seconds of sending for each run, after one second of warm-up.")
    var seconds = 5

    func run() async throws {
        for transport in transport.map({ [$0] }) ?? Transport.allCases {
            for provider in provider.map({ [$0] }) ?? Provider.allCases {
                try await measure(provider, over: transport)
            }
        }
    }

    private func measure(_ provider: Provider, over transport: Transport) async throws {
        let state = FakeProviderState()
        await state.setRecording(false)
        let draft = try await TestCredentials.make(tokenURI: "http://127.0.0.1/token")
        defer { draft.remove() }
        let server = try await FakeProviderServer.start(
            transport == .tls ? .tlsHTTP2(certificatePEM: draft.serverCertificatePEM, keyPEM: draft.serverKeyPEM) : .plainHTTP1, state: state)
        let credentials = try draft.rewritingTokenURI(server.tokenURI)
        try await state.trust(credentials, tokenURI: server.tokenURI)
        var logger = Logger(label: "push-bench")
        logger.logLevel = .warning
        let providers = try await PushProviders.load(PushConfiguration(
            fcmServiceAccount: provider == .fcm ? credentials.serviceAccountPath : nil, fcmBaseURL: server.baseURL,
            apnsKey: provider == .apns ? credentials.apnsKeyPath : nil, apnsKeyID: provider == .apns ? TestCredentials.apnsKeyID : nil,
            apnsTeamID: provider == .apns ? TestCredentials.apnsTeamID : nil, apnsTopic: provider == .apns ? TestCredentials.apnsTopic : nil,
            apnsBaseURL: server.baseURL, extraCAFile: transport == .tls ? credentials.caCertificatePath : nil), logger: logger)
        let via: PushProviders.Provider = provider == .fcm ? .fcm : .apns
        let run = "r\(UInt32.random(in: 0...UInt32.max))"

        @Sendable func send(_ worker: Int, _ number: Int) async -> PushOutcome {
            let token = provider == .fcm ? "bench-fcm-\(worker)" : String(format: "%064x", worker)
            let message = PushMessage(deliveryID: "\(run)-\(worker)-\(number)", token: token, platform: provider == .fcm ? .android : .ios,
                                      title: "Milk expires tomorrow", body: "2 items expire in the next 3 days", deepLink: "expirytracker://items/expiring")
            return await providers.send(message, via: via) ?? .failed(reason: "not configured")
        }

        // Warm-up: the OAuth exchange or the provider token, and the connections.
        _ = await drive(seconds: 1, send: send)
        let result = await drive(seconds: seconds, send: send)
        await providers.shutdown()
        await server.stop()
        let breaches = await state.breaches.count
        let label = "\(provider.rawValue) over \(transport == .tls ? "HTTP/2 + TLS" : "HTTP/1.1")"
        say(String(format: "%@: %.0f pushes/s (%d in %d s, %d in flight), p50 %.2f ms, p99 %.2f ms, outcomes %@, breaches %d",
                   label, Double(result.count) / Double(seconds), result.count, seconds, concurrency,
                   result.p50 * 1000, result.p99 * 1000, result.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "), breaches))
    }

    private struct Result {
        var count = 0
        var p50 = 0.0
        var p99 = 0.0
        var outcomes: [String: Int] = [:]
    }

    private func drive(seconds: Int, send: @escaping @Sendable (Int, Int) async -> PushOutcome) async -> Result {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let perWorker = await withTaskGroup(of: ([Double], [String: Int]).self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var times: [Double] = [], outcomes: [String: Int] = [:], number = 0
                    while ContinuousClock.now < deadline {
                        let started = ContinuousClock.now
                        let outcome = await send(worker, number)
                        let elapsed = ContinuousClock.now - started
                        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                        outcomes[outcome.kind, default: 0] += 1
                        number += 1
                    }
                    return (times, outcomes)
                }
            }
            return await group.reduce(into: [([Double], [String: Int])]()) { $0.append($1) }
        }
        var result = Result()
        let times = perWorker.flatMap(\.0).sorted()
        result.count = times.count
        result.p50 = times.isEmpty ? 0 : times[times.count / 2]
        result.p99 = times.isEmpty ? 0 : times[min(times.count - 1, times.count * 99 / 100)]
        for (_, outcomes) in perWorker { result.outcomes.merge(outcomes, uniquingKeysWith: +) }
        return result
    }
}
