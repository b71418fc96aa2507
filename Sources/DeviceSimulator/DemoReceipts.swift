import DemoData
import Foundation
import GRDB

/// The simulated apps' confirmations: each accepted campaign push is received after one to
/// three seconds (nine in ten), and opened a few seconds later by 25% of those who receive it
/// when it arrives within an hour of the user's habitual local hour (`DemoHabit`, the hour the
/// seeder placed their activity in), 10% otherwise: so sending at each user's usual hour
/// shows a lift over the fixed time. The apps know nothing of holdouts or controls: a user
/// behaves by when their push arrives, or does nothing when none does. Each delivery's fate
/// is drawn from its own stream of `seed`, so a test sees the same run each time.
struct DemoReceipts {
    let databasePath: String
    private let seed: UInt64
    private var seen: Set<String> = []
    private var due: [(at: Date, deliveryID: String, event: String, user: Int64?)] = []
    private var queue: DatabaseQueue?

    init(databasePath: String, seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.databasePath = databasePath
        self.seed = seed
    }

    /// Who receives a delivery: its user and their stored timezone.
    struct Recipient: Sendable {
        let user: Int64
        let timezone: String
    }

    /// Returns the users whose open it wrote: they are in the app now (`DemoGoalEvents`).
    @discardableResult
    mutating func tick(accepted: some Collection<String>, now: Date) async throws -> [Int64] {
        let fresh = accepted.filter { $0.hasPrefix("c") && !seen.contains($0) }
        if !fresh.isEmpty {
            seen.formUnion(fresh)
            let recipients = try await recipients(of: fresh.compactMap(Self.row))
            for id in fresh {
                let row = Self.row(id) ?? 0
                var random = SeedRandom(seed: seed, stream: UInt64(bitPattern: row))
                guard random.chance(0.9) else { continue }
                let received = now.addingTimeInterval(Double.random(in: 1...3, using: &random))
                due.append((received, id, "received", nil))
                let chance =
                    recipients[row].map {
                        DemoHabit.openChance(
                            localHour: DemoHabit.localHour(at: now, timezone: $0.timezone),
                            habit: DemoHabit.hour(user: $0.user))
                    } ?? DemoHabit.openedFar
                if random.chance(chance) {
                    due.append(
                        (
                            received.addingTimeInterval(Double.random(in: 2...6, using: &random)), id, "opened",
                            recipients[row]?.user
                        ))
                }
            }
        }
        let ready = due.filter { $0.at <= now }
        guard !ready.isEmpty else { return [] }
        due.removeAll { $0.at <= now }
        let queue = try openQueue()
        let stamp = Self.timestamp(now)
        let rows = ready.map { ($0.deliveryID, $0.event) }
        // Off the cooperative threads: GRDB's synchronous write blocks until it commits.
        _ = try await DeviceSimulator.offThePool {
            try queue.write { db in
                let insert = try db.makeStatement(
                    sql: """
                        INSERT INTO push_receipts (delivery_id, device_id, event, created_at)
                        VALUES (?, (SELECT device_id FROM panel_deliveries WHERE id = ?), ?, ?)
                        """)
                for (deliveryID, event) in rows {
                    try insert.execute(arguments: [deliveryID, Self.row(deliveryID), event, stamp])
                }
            }
        }
        return ready.compactMap(\.user)
    }

    /// The users of these delivery rows and their timezones, read as the app's backend knows them.
    private mutating func recipients(of rows: [Int64]) async throws -> [Int64: Recipient] {
        let queue = try openQueue()
        return try await DeviceSimulator.offThePool {
            try queue.read { db in
                var found: [Int64: Recipient] = [:]
                for start in stride(from: 0, to: rows.count, by: 500) {
                    let chunk = Array(rows[start..<min(rows.count, start + 500)])
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    let fetched = try Row.fetchCursor(
                        db,
                        sql: """
                            SELECT d.id, d.user_id, COALESCE(u.timezone, '') AS timezone
                            FROM panel_deliveries d LEFT JOIN users u ON u.id = d.user_id WHERE d.id IN (\(marks))
                            """, arguments: StatementArguments(chunk))
                    while let row = try fetched.next() {
                        found[row["id"]] = Recipient(user: row["user_id"], timezone: row["timezone"])
                    }
                }
                return found
            }
        } ?? [:]
    }

    /// The delivery's row id: the part after the last '-' of "c<campaign>-<row>".
    static func row(_ deliveryID: String) -> Int64? {
        deliveryID.split(separator: "-").last.flatMap { Int64($0) }
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
