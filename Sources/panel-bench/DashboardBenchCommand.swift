import ArgumentParser
import DemoData
import Foundation
import PanelLoad

/// The timings come from a server refreshing every 5 s, the load from one with the default intervals, as
/// production runs.
struct DashboardBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Time the dashboard's counts and load its page on a copy of a seeded database (rows are added to it)."
    )

    @OptionGroup var panel: PanelBinary

    @OptionGroup var seeded: SeededDatabase

    @Option(help: "Seconds of load at each number of connections.")
    var seconds = 10

    @Option(help: "Incremental refreshes to time.")
    var refreshes = 3

    @Option(
        help: """
            wrk's path, the load client (lighter than the built-in one, which shares the two cores with the \
            server); the built-in client when it is not there.
            """)
    var wrk = "/usr/bin/wrk"

    func run() async throws {
        let folder = try BenchFolder("panel-dashboard")
        defer { folder.remove() }
        let fixture = try await LoadFixture.prepare(databasePath: seeded.db)
        let server = try await folder.startPanel(panel.binary, db: seeded.db, arguments: ["--dashboard-refresh", "5"])
        let full = try await refreshTimes(in: server, full: true, count: 1)[0]
        let afterFull = server.memory
        say(
            String(
                format: "first full count: %.2f s; server memory after it %.0f MiB (peak %.0f MiB)",
                full, afterFull?.resident ?? .nan, afterFull?.peak ?? .nan))

        // The backend goes on writing: about a minute's worth of rows before each refresh.
        let path = seeded.db
        let writer = Task { try await BackendActivity.run(path: path) }
        let incremental = try await refreshTimes(in: server, full: false, count: refreshes)
        writer.cancel()
        say(
            "incremental refreshes with rows arriving: "
                + incremental.map { String(format: "%.3f s", $0) }.joined(separator: ", "))

        // The load runs on a server with the default intervals (a refresh a minute), as in
        // production, not on the one refreshing every 5 seconds for the timings above.
        try await server.stopAndSay()
        let loadServer = try await folder.startPanel(panel.binary, db: seeded.db, log: "server-2.log")
        _ = try await refreshTimes(in: loadServer, full: true, count: 1)
        let useWrk = FileManager.default.isExecutableFile(atPath: wrk)
        for connections in [4, 32] {
            if useWrk {
                say(
                    try Self.runWrk(
                        wrk, url: loadServer.baseURL + "/", cookie: fixture.cookie, connections: connections,
                        seconds: seconds))
                continue
            }
            let report = try await loadServer.load(
                [LoadPage("dashboard", "/")], cookie: fixture.cookie, seconds: seconds, connections: connections,
                timeout: .seconds(5))
            let page = report.pages[0]
            say(
                String(
                    format: "%2d connections (built-in client): %.0f requests/s, p50 %.2f ms, p99 %.2f ms, "
                        + "slowest %.1f ms, %d failed",
                    connections, report.requestsPerSecond, page.p50.milliseconds, page.p99.milliseconds,
                    page.slowest.milliseconds, report.failures))
        }
        let end = loadServer.memory
        say(
            String(
                format: "server memory at the end %.0f MiB (peak %.0f MiB)", end?.resident ?? .nan, end?.peak ?? .nan))
        try await loadServer.stopAndSay()
    }

    /// wrk with one thread, its latency distribution, the figures in one line.
    static func runWrk(_ wrk: String, url: String, cookie: String, connections: Int, seconds: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t1", "-c\(connections)", "-d\(seconds)s", "--latency", "-H", "Cookie: \(cookie)", url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func field(_ prefix: String) -> String {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? "?"
        }
        let errors = output.split(separator: "\n").filter { $0.contains("Non-2xx") || $0.contains("Socket errors") }
            .joined(separator: "; ")
        return "\(connections) connections (wrk): \(field("Requests/sec:")) requests/s, "
            + "p50 \(field("50%")), p99 \(field("99%"))" + (errors.isEmpty ? ", no errors" : ", \(errors)")
    }

    /// The seconds of the next `count` refreshes (full or not) the server logs.
    private func refreshTimes(in server: PanelProcess, full: Bool, count: Int) async throws -> [Double] {
        let marker = "full=\(full) seconds="
        let seen = server.output.components(separatedBy: marker).count - 1
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(600)
        while clock.now < giveUp {
            let parts = server.output.components(separatedBy: marker)
            if parts.count - 1 >= seen + count {
                return parts.dropFirst(seen + 1).prefix(count).map {
                    Double($0.prefix { $0.isNumber || $0 == "." }) ?? .nan
                }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let kind = full ? "full" : "incremental"
        throw ValidationError("the server logged no \(kind) refresh in 10 minutes:\n\(server.output.suffix(2000))")
    }
}
