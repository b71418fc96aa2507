import AdminDomain
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import PanelLoad
import Synchronization

/// Issue 46, finding 0: at a million users the first dashboard after a restart waited 50 s.
/// Starts the real server several times in a row on the same file and, through each start's
/// first minute, asks every page of the load test's mix once a second (each page its own
/// client, so that one page waiting hides no other), beside `/health`.
struct FirstMinuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-minute",
        abstract: """
            Every page's time during the first minute after a start, beside /health's, over several starts in a \
            row on the same file.
            """,
        discussion: "Run it on a copy: the panel writes a staff account, campaigns, a journey and audit rows into it.")

    @OptionGroup var seeded: SeededDatabase

    @OptionGroup var panel: PanelBinary

    @Option(help: "Starts in a row, each stopped with SIGTERM after its measured seconds.")
    var starts = 3

    @Option(help: "Seconds measured after each start.")
    var seconds = 60

    @Option(help: "Seconds a request may take before it is given up on (counted as not answered).")
    var timeout = 60

    struct Sample: Sendable {
        /// Seconds since the process was started, when the request was sent.
        let at: Double
        let milliseconds: Double
        /// The status, or 0 when there was no answer.
        let status: Int
    }

    func run() async throws {
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let pages = [LoadPage("/health", "/health")] + LoadPage.standardMix(fixture: fixture)
        for start in 1...max(1, starts) {
            let folder = try BenchFolder("panel-first-minute")
            defer { folder.remove() }
            let clock = ContinuousClock()
            let began = clock.now
            let server = try await folder.startPanel(panel.binary, db: seeded.db)
            let listening = (clock.now - began).seconds
            let samples = try await measure(pages, server: server, cookie: fixture.cookie, began: began)
            say(
                String(
                    format: "start %d of %d: listening after %.1f s; %@", start, starts, listening,
                    Self.countLine(server.output)))
            say(Self.table(pages: pages, samples: samples))
            try await server.stopAndSay()
        }
    }

    /// Each page asked once a second by a client of its own for `seconds` after `began`.
    func measure(_ pages: [LoadPage], server: PanelProcess, cookie: String, began: ContinuousClock.Instant)
        async throws -> [String: [Sample]]
    {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: pages.count + 4)
        configuration.timeout = .init(connect: .seconds(5))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let clock = ContinuousClock()
        let end = began + .seconds(seconds)
        let (baseURL, timeout) = (server.baseURL, Int64(timeout))
        let all = await withTaskGroup(of: (String, [Sample]).self) { group in
            for page in pages {
                group.addTask {
                    var samples: [Sample] = []
                    while clock.now < end {
                        let sent = clock.now
                        var request = HTTPClientRequest(url: baseURL + page.path)
                        request.headers.add(name: "Cookie", value: cookie)
                        var status = 0
                        do {
                            let response = try await client.execute(request, timeout: .seconds(timeout))
                            _ = try await response.body.collect(upTo: 256 * 1024 * 1024)
                            status = Int(response.status.code)
                        } catch {
                            status = 0
                        }
                        let took = clock.now - sent
                        samples.append(
                            Sample(at: (sent - began).seconds, milliseconds: took.milliseconds, status: status))
                        let pause = Duration.seconds(1) - took
                        if pause > .zero { try? await Task.sleep(for: pause) }
                    }
                    return (page.name, samples)
                }
            }
            var all: [String: [Sample]] = [:]
            for await (name, samples) in group { all[name] = samples }
            return all
        }
        try await client.shutdown()
        return all
    }

    /// When the server's first full dashboard count ended, from its log.
    static func countLine(_ log: String) -> String {
        let counted = log.split(separator: "\n").first { $0.contains("dashboard refreshed") && $0.contains("full") }
        return counted.map { "first full count: " + String($0.suffix(120)) } ?? "no full dashboard count in the log"
    }

    /// One line a page: its first answer (when, how long, status), p50, p99 and slowest over the
    /// minute, the statuses, and its slowest against /health's slowest in the same run.
    static func table(pages: [LoadPage], samples: [String: [Sample]]) -> String {
        func percentile(_ sorted: [Double], _ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
        let healthSlowest = samples["/health"]?.map(\.milliseconds).max() ?? 0
        var lines = [
            "page                      first at s  first ms     p50 ms     p99 ms    max ms  max/health  statuses"
        ]
        for page in pages {
            let all = samples[page.name] ?? []
            let times = all.map(\.milliseconds).sorted()
            var statuses: [Int: Int] = [:]
            for sample in all { statuses[sample.status, default: 0] += 1 }
            let first = all.first
            let slowest = times.last ?? 0
            lines.append(
                page.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(
                        format: "%10.1f %9.1f %10.1f %10.1f %9.1f %11.1f  ", first?.at ?? 0, first?.milliseconds ?? 0,
                        percentile(times, 0.5), percentile(times, 0.99), slowest,
                        healthSlowest > 0 ? slowest / healthSlowest : 0)
                    + statuses.sorted { $0.key < $1.key }.map {
                        "\($0.key == 0 ? "none" : String($0.key)) ×\($0.value)"
                    }
                    .joined(separator: ", "))
        }
        let worst = pages.dropFirst().compactMap { page in
            (samples[page.name]?.map(\.milliseconds).max()).map { (page.name, $0) }
        }.max { $0.1 < $1.1 }
        if let worst {
            lines.append(
                String(
                    format: "slowest page: %@, %.1f ms, beside /health's slowest %.1f ms in the same minute", worst.0,
                    worst.1, healthSlowest))
        }
        return lines.joined(separator: "\n")
    }
}
