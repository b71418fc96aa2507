import AdminDomain
import AdminWeb
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PanelLoad

/// How long an outcome takes from its commit to a live page: the real panel serves on
/// 127.0.0.1, a client holds the campaign's event stream open, and each round records one
/// more delivery as accepted (and publishes it, as the dispatcher does) and times until an
/// event carries the new count.
enum LiveDelay {
    static func measure(databasePath: String, campaign id: Int64, rounds: Int, logger: Logger) async throws
        -> [Duration]
    {
        let fixture = try await LoadFixture.prepare(databasePath: databasePath)
        var configuration = PanelConfiguration(databasePath: databasePath, port: 0)
        configuration.dashboardRefreshInterval = 3_600
        configuration.logLevel = .critical
        let areas = PanelAreas(
            database: try await PanelDatabase.open(path: databasePath), configuration: configuration, logger: logger)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let running = Task {
            try await buildApplication(
                areas: areas,
                onRunning: { port in
                    portSink.yield(port)
                    portSink.finish()
                }
            ).runService(gracefulShutdownSignals: [])
        }
        var port = 0
        for await bound in ports { port = bound }
        defer { running.cancel() }

        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/campaigns/\(id)/events")
        request.headers.add(name: "cookie", value: fixture.cookie)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        var events = response.body.makeAsyncIterator()
        var pending = ""
        /// The accepted count of the next complete event.
        func nextAccepted() async throws -> Int? {
            while true {
                if let end = pending.range(of: "\n\n") {
                    let event = String(pending[..<end.lowerBound])
                    pending = String(pending[end.upperBound...])
                    guard let line = event.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) else {
                        continue
                    }
                    let progress = try JSONDecoder().decode(CampaignProgress.self, from: Data(line.dropFirst(6).utf8))
                    return progress.accepted
                }
                guard let chunk = try await events.next() else { return nil }
                pending += String(buffer: chunk)
            }
        }
        guard var accepted = try await nextAccepted() else { return [] }
        var delays: [Duration] = []
        for _ in 0..<rounds {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...900)))
            let started = ContinuousClock.now
            try await areas.database.write { db in
                try db.execute(
                    sql: """
                        UPDATE panel_deliveries SET state = 'accepted'
                        WHERE id = (
                          SELECT id FROM panel_deliveries WHERE campaign_id = ? AND state <> 'accepted' LIMIT 1)
                        """, arguments: [id])
                // As the dispatcher's recording of a batch of outcomes does.
                areas.campaigns.campaigns.changes.publishOnCommit(id, in: db)
            }
            while let seen = try await nextAccepted(), seen <= accepted {}
            accepted += 1
            delays.append(ContinuousClock.now - started)
        }
        return delays
    }
}
