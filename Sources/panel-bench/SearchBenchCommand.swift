import AdminDomain
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import PanelLoad

/// The regression guard of issue 24: email-prefix searches on a server just started, each
/// prefix looked at for the first time (its pages not yet in the panel's caches), then again.
struct SearchBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "First-look p50 of 12 fresh email prefixes on a cold server, and of a second look.")

    @Option(help: "A seeded database (the panel writes a staff account and its audit rows).")
    var db: String

    @Option(help: "The admin-panel binary, e.g. .build-release/release/admin-panel.")
    var binary: String

    @Option(help: "Prefixes to look at.")
    var prefixes = 12

    @Option(help: "Characters a prefix has.")
    var length = 4

    @Option(help: "Picks other users' prefixes, so that a second run's are fresh too.")
    var seed: UInt64 = 1

    @Option(help: "Seconds between the start and the first search (0: while the first full count runs).")
    var wait = 0.0

    @Flag(help: "Drop the operating system's page cache before the start (root only): cold disk as well as a cold server.")
    var dropCaches = false

    func run() async throws {
        let cookie = try await LoadFixture.signIn(databasePath: db)
        let chosen = try await Self.prefixes(count: prefixes, length: length, seed: seed, in: db)
        if dropCaches { say(Self.dropPageCache()) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("panel-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await PanelProcess.start(binary: URL(fileURLWithPath: binary), databasePath: db, publicDirectory: nil,
                                                  logFile: folder.appendingPathComponent("server.log"))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            // The connection and the session are made before the clock runs.
            _ = try await Self.get(server.baseURL + "/users", cookie: cookie, client: client)
            if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
            var first: [Double] = [], second: [Double] = []
            for prefix in chosen {
                first.append(try await Self.get(server.baseURL + "/users?q=\(prefix)", cookie: cookie, client: client))
            }
            for prefix in chosen {
                second.append(try await Self.get(server.baseURL + "/users?q=\(prefix)", cookie: cookie, client: client))
            }
            say("prefixes: " + chosen.joined(separator: " "))
            say("first look, ms: " + first.map { String(format: "%.1f", $0) }.joined(separator: " "))
            say(String(format: "email prefix search, first look: p50 %.2f ms, slowest %.2f ms (goal: p50 under 3 ms)",
                       Self.median(first), first.max() ?? 0))
            say(String(format: "second look: p50 %.2f ms, slowest %.2f ms", Self.median(second), second.max() ?? 0))
        } catch {
            try? await client.shutdown()
            _ = try? await server.terminate(within: .seconds(15))
            throw error
        }
        try await client.shutdown()
        _ = try await server.terminate(within: .seconds(15))
    }

    /// The first `length` characters of emails of users spread evenly over the ids, distinct
    /// and without `@`, so that each names a range nobody looked at.
    static func prefixes(count: Int, length: Int, seed: UInt64, in path: String) async throws -> [String] {
        let database = try await PanelDatabase.open(path: path)
        return try await database.read { db in
            let top = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users") ?? 0
            var chosen: [String] = []
            var step: Int64 = 0
            while chosen.count < count, step < Int64(count) * 50, top > 0 {
                let id = (Int64(seed &* 7_919) + step * (top / Int64(count * 3) + 1)) % top + 1
                step += 1
                guard let email = try String.fetchOne(db, sql: "SELECT email FROM users WHERE id >= ? ORDER BY id LIMIT 1", arguments: [id])
                else { continue }
                let prefix = String(email.lowercased().prefix(length))
                guard prefix.count == length, prefix.allSatisfy({ $0.isLetter || $0 == "." }), !chosen.contains(prefix) else { continue }
                chosen.append(prefix)
            }
            return chosen
        }
    }

    /// Milliseconds until the whole page arrived; a status other than 200 stops the run.
    static func get(_ url: String, cookie: String, client: HTTPClient) async throws -> Double {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Cookie", value: cookie)
        let started = ContinuousClock.now
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 16 * 1024 * 1024)
        let elapsed = ContinuousClock.now - started
        guard response.status.code == 200 else { throw ValidationError("\(url) answered \(response.status.code)") }
        return elapsed.seconds * 1000
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func dropPageCache() -> String {
        sync()
        do {
            try "1\n".write(toFile: "/proc/sys/vm/drop_caches", atomically: false, encoding: .utf8)
            return "dropped the page cache"
        } catch {
            return "could not drop the page cache (not root?): the disk may be warm"
        }
    }
}
