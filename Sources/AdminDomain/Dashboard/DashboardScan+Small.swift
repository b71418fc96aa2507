import Foundation
import GRDB

extension DashboardScan {
    func readHouseholds(window: DayWindow) async throws -> HouseholdTally {
        let tally = Box(HouseholdTally())
        _ = try await walk("SELECT id, created_at FROM households WHERE id > ? ORDER BY id LIMIT ?", after: Int64.min) { row in
            tally.value.total += 1
            tally.value.created.add(day: row.seconds(1).map(TimestampBytes.day(ofSeconds:)) ?? window.first - 1, in: window)
        }
        return tally.value
    }

    /// Devices change in place (permissions, platforms), so they are counted whole, by key.
    func readDevices() async throws -> DeviceTally {
        let tally = Box(DeviceTally()), platforms = ValueBytes<Platform>(), permissions = ValueBytes<PushPermission>()
        _ = try await walk("""
            SELECT id, CAST(platform AS TEXT), CAST(push_permission AS TEXT) FROM devices WHERE id > ? ORDER BY id LIMIT ?
            """, after: Int64.min) { row in
            let platform = platforms.term(in: row, column: 1)?.rawValue ?? "other"
            let permission = permissions.term(in: row, column: 2)?.rawValue ?? "other"
            tally.value.counts[platform, default: [:]][permission, default: 0] += 1
        }
        return tally.value
    }

    /// Reminders due in the last 30 days that the backend tried: a range of their time index.
    func readReminders() async throws -> ReminderTally {
        let from = SQLiteTime.string(now.addingTimeInterval(-30 * 86_400)), to = SQLiteTime.string(now)
        return try await database.read { db in
            var tally = ReminderTally()
            _ = try db.forEachRawRow("""
                SELECT COUNT(*) FILTER (WHERE CAST(status AS TEXT) = :sent),
                       COUNT(*) FILTER (WHERE CAST(status AS TEXT) = :failed)
                FROM reminders WHERE scheduled_for >= :from AND scheduled_for < :to
                """, arguments: ["from": from, "to": to, "sent": ReminderStatus.sent, "failed": ReminderStatus.failed]) { row in
                tally = ReminderTally(sent: Int(row.integer(0) ?? 0), failed: Int(row.integer(1) ?? 0))
            }
            return tally
        }
    }

    /// Campaign pushes the providers accepted, by the day the answer was recorded.
    func readAcceptedPushes(window: DayWindow) async throws -> DayCounts {
        let counts = Box(DayCounts())
        _ = try await walk("""
            SELECT id, updated_at FROM panel_deliveries WHERE id > ? AND state = 'accepted' ORDER BY id LIMIT ?
            """, after: Int64.min) { row in
            counts.value.add(day: row.seconds(1).map(TimestampBytes.day(ofSeconds:)) ?? window.first - 1, in: window)
        }
        return counts.value
    }

    /// Deliveries the devices confirmed, counted once a day and event, from `from` (a day)
    /// on: two weeks per read along the receipts' time index. The days read replace what
    /// the tally had for them.
    func readReceipts(into tally: DashboardTally, from: Int) async throws {
        let window = tally.window
        var day = max(from, window.first)
        while day <= min(today, window.last) {
            let end = min(day + 14, window.last + 1)
            let rows = try await database.read { [day] db in
                var rows: [(Int64?, String?, Int)] = []
                _ = try db.forEachRawRow("""
                    SELECT substr(created_at, 1, 10), CAST(event AS TEXT), COUNT(DISTINCT delivery_id) FROM push_receipts
                    WHERE created_at >= ? AND created_at < ? GROUP BY 1, 2
                    """, arguments: [SQLiteTime.dayString(daysSinceEpoch: Int64(day)), SQLiteTime.dayString(daysSinceEpoch: Int64(end))]) { row in
                    rows.append((row.seconds(0), row.text(1), Int(row.integer(2) ?? 0)))
                }
                return rows
            }
            for index in (day - window.first)..<(end - window.first) {
                tally.pushes.received.days[index] = 0
                tally.pushes.opened.days[index] = 0
            }
            for case let (seconds?, event, count) in rows {
                let receiptDay = TimestampBytes.day(ofSeconds: seconds)
                if event == "received" { tally.pushes.received.add(day: receiptDay, in: window, count) }
                if event == "opened" { tally.pushes.opened.add(day: receiptDay, in: window, count) }
            }
            day = end
        }
    }
}

/// A value filled by a walk's rows, one read after another (never two at once).
final class Box<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
