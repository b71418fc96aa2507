import AdminDomain
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import PanelLoad
import Synchronization

/// Issue 46, finding 9: 50 concurrent exports by one support member starved the server
/// (`/health` p50 1.04 s). `/health` and search at 2 connections with no export running, then
/// the same while 50 clients of one support member ask for an export again and again (a
/// refused one waits its `Retry-After` first, as a polite client does).
struct ExportsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exports",
        abstract: """
            /health and search p50 and p99 during concurrent CSV exports by one support member, beside the same \
            with none.
            """,
        discussion: "The panel writes staff accounts and audit rows into the database: run it on a copy.")

    @OptionGroup var seeded: SeededDatabase

    @OptionGroup var panel: PanelBinary

    @Option(help: "Clients asking for an export at once, all as the same support member.")
    var exports = 50

    @Option(help: "The export each client asks for.")
    var path = "/activity.csv?bucket=idle"

    @Option(help: "Seconds of /health and search in each phase.")
    var seconds = 15

    @Option(help: "Seconds after the start before the first phase (the first counts).")
    var warmUp = 20

    func run() async throws {
        let database = try await seeded.open()
        let probe = try await LoadFixture.signIn(database).cookie
        let support = try await Self.supportSession(database)
        let folder = try BenchFolder("panel-exports")
        defer { folder.remove() }
        let server = try await folder.startPanel(panel.binary, db: seeded.db)
        try await Task.sleep(for: .seconds(warmUp))
        let pages = [LoadPage("/health", "/health"), LoadPage("search", "/users?q=maria")]
        let none = try await server.load(pages, cookie: probe, seconds: seconds, connections: 2, timeout: .seconds(30))
        let tally = Tally()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: exports)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let (url, clients) = (server.baseURL + path, exports)
        let during = try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    while !tally.stop.withLock({ $0 }) {
                        var request = HTTPClientRequest(url: url)
                        request.headers.add(name: "Cookie", value: support)
                        let started = ContinuousClock.now
                        do {
                            let response = try await client.execute(request, timeout: .seconds(120))
                            let body = try await response.body.collect(upTo: 512 * 1024 * 1024)
                            let took = ContinuousClock.now - started
                            if response.status.code == 429 {
                                tally.counts.withLock { $0.refused += 1 }
                                let wait = Int(response.headers.first(name: "retry-after") ?? "") ?? 1
                                try await Task.sleep(for: .seconds(wait))
                            } else if response.status.code == 200 {
                                tally.counts.withLock {
                                    $0.written += 1
                                    $0.bytes += body.readableBytes
                                    $0.slowest = max($0.slowest, took)
                                }
                            } else {
                                tally.counts.withLock { $0.failed += 1 }
                            }
                        } catch {
                            tally.counts.withLock { $0.failed += 1 }
                        }
                    }
                }
            }
            // The exports are under way before the clock runs.
            try await Task.sleep(for: .seconds(2))
            let report = try await server.load(
                pages, cookie: probe, seconds: seconds, connections: 2, timeout: .seconds(30))
            tally.stop.withLock { $0 = true }
            try await group.waitForAll()
            return report
        }
        try await client.shutdown()
        let counts = tally.counts.withLock { $0 }
        say("no export running, /health and search at 2 connections for \(seconds) s:\n" + none.table)
        say("during \(clients) clients' exports of \(path), all as one support member:\n" + during.table)
        for name in ["/health", "search"] {
            guard let before = none.pages.first(where: { $0.name == name }),
                let with = during.pages.first(where: { $0.name == name })
            else { continue }
            say(
                String(
                    format: "%@: p50 %.1f ms, p99 %.1f ms during the exports; %.1f ms, %.1f ms with none (p99 %.1f×)",
                    name, with.p50.milliseconds, with.p99.milliseconds, before.p50.milliseconds,
                    before.p99.milliseconds, before.p99 > .zero ? with.p99.milliseconds / before.p99.milliseconds : 0))
        }
        say(
            String(
                format: "exports: %d written (%.1f MB, slowest %.1f s), %d refused with 429, %d failed",
                counts.written, Double(counts.bytes) / 1_048_576, counts.slowest.seconds, counts.refused,
                counts.failed))
        try await server.stopAndSay()
    }

    /// What the exporting clients saw, and when they stop.
    final class Tally: Sendable {
        let counts = Mutex<(written: Int, refused: Int, failed: Int, bytes: Int, slowest: Duration)>(
            (0, 0, 0, 0, .zero))
        let stop = Mutex(false)
    }

    /// A support member's session, made straight in the panel's tables.
    static func supportSession(_ database: PanelDatabase) async throws -> String {
        let hasher = PasswordHasher(parameters: ScryptParameters(logN: 4, r: 8, p: 1))
        let admins = AdminStore(database: database, hasher: hasher)
        let email = "export-bench@example.com"
        var admin = try await admins.find(email: email)
        if admin == nil {
            admin = try await admins.create(
                email: email, password: UUID().uuidString + UUID().uuidString, role: .support)
        }
        guard let id = admin?.id else { throw ValidationError("no support account") }
        let token = try await SessionStore(database: database, policy: SessionPolicy())
            .create(adminID: id, clientAddress: "127.0.0.1", userAgent: "panel-bench exports")
        return "panel_session=\(token)"
    }
}
