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

    @Flag(
        help: """
            Run the fake in a process of its own, and print each side's CPU: what the clients cost apart from \
            the fake.
            """)
    var separateFake = false

    func run() async throws {
        for transport in transport.map({ [$0] }) ?? Transport.allCases {
            for provider in provider.map({ [$0] }) ?? Provider.allCases {
                try await measure(provider, over: transport)
            }
        }
    }

    private func measure(_ provider: Provider, over transport: Transport) async throws {
        let fake = separateFake ? try await FakeEndpoint.spawn(transport) : try await FakeEndpoint.inProcess(transport)
        var logger = Logger(label: "push-bench")
        logger.logLevel = .warning
        let providers = try await PushProviders.load(
            PushConfiguration(
                fcmServiceAccount: provider == .fcm ? fake.serviceAccountPath : nil, fcmBaseURL: fake.baseURL,
                apnsKey: provider == .apns ? fake.apnsKeyPath : nil,
                apnsKeyID: provider == .apns ? TestCredentials.apnsKeyID : nil,
                apnsTeamID: provider == .apns ? TestCredentials.apnsTeamID : nil,
                apnsTopic: provider == .apns ? TestCredentials.apnsTopic : nil,
                apnsBaseURL: fake.baseURL, extraCAFile: transport == .tls ? fake.caPath : nil), logger: logger)
        let via: PushProviders.Provider = provider == .fcm ? .fcm : .apns
        let run = "r\(UInt32.random(in: 0...UInt32.max))"

        @Sendable func send(_ worker: Int, _ number: Int) async -> PushOutcome {
            let token = provider == .fcm ? "bench-fcm-\(worker)" : String(format: "%064x", worker)
            let message = PushMessage(
                deliveryID: "\(run)-\(worker)-\(number)", token: token, platform: provider == .fcm ? .android : .ios,
                title: "Milk expires tomorrow", body: "2 items expire in the next 3 days",
                deepLink: "expirytracker://items/expiring")
            return await providers.send(message, via: via) ?? .failed(reason: "not configured")
        }

        // Warm-up: the OAuth exchange or the provider token, and the connections.
        _ = await drive(seconds: 1, send: send)
        let cpuBefore = (ours: CPUTime.process(nil), fake: CPUTime.process(fake.pid))
        let result = await drive(seconds: seconds, send: send)
        let cpu = (ours: CPUTime.process(nil) - cpuBefore.ours, fake: CPUTime.process(fake.pid) - cpuBefore.fake)
        await providers.shutdown()
        let breaches = await fake.stop()
        let label = "\(provider.rawValue) over \(transport == .tls ? "HTTP/2 + TLS" : "HTTP/1.1")"
        say(
            String(
                format:
                    "%@: %.0f pushes/s (%d in %d s, %d in flight), p50 %.2f ms, p99 %.2f ms, outcomes %@, breaches %d",
                label, Double(result.count) / Double(seconds), result.count, seconds, concurrency,
                result.p50 * 1000, result.p99 * 1000,
                result.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
                breaches))
        if fake.pid != nil, result.count > 0 {
            let perPush = cpu.ours / Double(result.count)
            say(
                String(
                    format: "  CPU: clients %.2f s (%.1f µs a push: %.0f pushes/s on 2 cores alone), fake %.2f s",
                    cpu.ours, perPush * 1e6, 2 / perPush, cpu.fake))
        }
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
                    var times: [Double] = []
                    var outcomes: [String: Int] = [:]
                    var number = 0
                    while ContinuousClock.now < deadline {
                        let started = ContinuousClock.now
                        let outcome = await send(worker, number)
                        let elapsed = ContinuousClock.now - started
                        times.append(elapsed.seconds)
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

/// Where the fake listens and the credentials it checks: in this process, or in a child
/// (`panel-bench push-fake`) whose CPU is then counted apart.
struct FakeEndpoint {
    let baseURL: String
    let serviceAccountPath: String
    let apnsKeyPath: String
    let caPath: String
    let pid: Int32?
    /// Stops the fake; the number of protocol breaches it saw.
    let stop: () async -> Int

    static func inProcess(_ transport: PushBenchCommand.Transport) async throws -> FakeEndpoint {
        let (server, credentials) = try await PushFakeCommand.start(transport)
        return FakeEndpoint(
            baseURL: server.baseURL, serviceAccountPath: credentials.serviceAccountPath,
            apnsKeyPath: credentials.apnsKeyPath,
            caPath: credentials.caCertificatePath, pid: nil
        ) {
            let breaches = await server.state.breaches.count
            await server.stop()
            credentials.remove()
            return breaches
        }
    }

    static func spawn(_ transport: PushBenchCommand.Transport) async throws -> FakeEndpoint {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["push-fake", "--transport", transport.rawValue]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = LineReader(output.fileHandleForReading)
        guard let ready = await reader.next(), ready.hasPrefix("ready ") else {
            process.terminate()
            throw ValidationError("the fake did not start")
        }
        let parts = ready.split(separator: " ").map(String.init)
        guard parts.count == 5 else { throw ValidationError("the fake said \(ready)") }
        return FakeEndpoint(
            baseURL: parts[1], serviceAccountPath: parts[2], apnsKeyPath: parts[3], caPath: parts[4],
            pid: process.processIdentifier
        ) {
            try? input.fileHandleForWriting.close()
            let last = await reader.next()
            process.waitUntilExit()
            return Int(last?.split(separator: " ").last ?? "") ?? -1
        }
    }
}

/// User plus system CPU seconds of a process, from /proc.
enum CPUTime {
    static func process(_ pid: Int32?) -> Double {
        let path = pid.map { "/proc/\($0)/stat" } ?? "/proc/self/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command's ")": state is field 3, utime 14 and stime 15 (proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// The fake providers alone, for `push --separate-fake`: prints
/// `ready BASE_URL SERVICE_ACCOUNT P8 CA`, serves until standard input closes, then prints
/// `breaches N`.
struct PushFakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-fake", abstract: "Run the fake providers until standard input closes.", shouldDisplay: false)

    @Option var transport: PushBenchCommand.Transport = .plain

    static func start(_ transport: PushBenchCommand.Transport) async throws -> (FakeProviderServer, TestCredentials) {
        let state = FakeProviderState()
        await state.setRecording(false)
        let draft = try await TestCredentials.make(tokenURI: "http://127.0.0.1/token")
        let server = try await FakeProviderServer.start(
            transport == .tls
                ? .tlsHTTP2(certificatePEM: draft.serverCertificatePEM, keyPEM: draft.serverKeyPEM) : .plainHTTP1,
            state: state)
        let credentials = try draft.rewritingTokenURI(server.tokenURI)
        try await state.trust(credentials, tokenURI: server.tokenURI)
        return (server, credentials)
    }

    func run() async throws {
        let (server, credentials) = try await Self.start(transport)
        let paths = [credentials.serviceAccountPath, credentials.apnsKeyPath, credentials.caCertificatePath]
        say("ready \(server.baseURL) " + paths.joined(separator: " "))
        // A blocking read, on a thread of its own rather than a cooperative one.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                done.resume()
            }
        }
        let breaches = await server.state.breaches.count
        await server.stop()
        credentials.remove()
        say("breaches \(breaches)")
    }
}

/// Lines from a child's output, read by blocking reads on a thread of their own.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Called by one task at a time.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                while true {
                    if let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: self.buffer[..<newline], as: UTF8.self)
                        self.buffer.removeSubrange(...newline)
                        continuation.resume(returning: line)
                        return
                    }
                    let chunk = self.handle.availableData
                    if chunk.isEmpty {
                        continuation.resume(returning: nil)
                        return
                    }
                    self.buffer.append(chunk)
                }
            }
        }
    }
}
