import Foundation
import GRDB

/// The simulated apps' confirmations: each accepted campaign push is received after one to
/// three seconds (nine in ten), and opened a few seconds later (a third of those received).
struct DemoReceipts {
    let databasePath: String
    private var seen: Set<String> = []
    private var due: [(at: Date, deliveryID: String, event: String)] = []
    private var generator = SystemRandomNumberGenerator()
    private var queue: DatabaseQueue?

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    mutating func tick(accepted: some Collection<String>, now: Date) async throws {
        for id in accepted where id.hasPrefix("c") && !seen.contains(id) {
            seen.insert(id)
            guard Double.random(in: 0..<1, using: &generator) < 0.9 else { continue }
            let received = now.addingTimeInterval(Double.random(in: 1...3, using: &generator))
            due.append((received, id, "received"))
            if Double.random(in: 0..<1, using: &generator) < 0.35 {
                due.append((received.addingTimeInterval(Double.random(in: 2...6, using: &generator)), id, "opened"))
            }
        }
        let ready = due.filter { $0.at <= now }
        guard !ready.isEmpty else { return }
        due.removeAll { $0.at <= now }
        let queue = try openQueue()
        let stamp = Self.timestamp(now)
        let rows = ready.map { ($0.deliveryID, $0.event) }
        // Off the cooperative threads: GRDB's synchronous write blocks until it commits.
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try queue.write { db in
                        let insert = try db.makeStatement(sql: """
                            INSERT INTO push_receipts (delivery_id, device_id, event, created_at)
                            VALUES (?, (SELECT device_id FROM panel_deliveries WHERE id = ?), ?, ?)
                            """)
                        for (deliveryID, event) in rows {
                            let row = deliveryID.split(separator: "-").last.flatMap { Int64($0) }
                            try insert.execute(arguments: [deliveryID, row, event, stamp])
                        }
                    }
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    mutating func openQueue() throws -> DatabaseQueue {
        if let queue { return queue }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let opened = try DatabaseQueue(path: databasePath, configuration: configuration)
        queue = opened
        return opened
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter.string(from: date)
    }
}
