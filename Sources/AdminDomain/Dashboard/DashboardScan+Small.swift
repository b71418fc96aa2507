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

    /// Reminders due from the start of `from` (a day) until now, by day: one day of their
    /// time index per read (a day's reminders are looked up row by row for their status).
    /// The days read replace what the tally had for them.
    func readReminders(into tally: DashboardTally, from: Int) async throws {
        let window = tally.window, statuses = ValueBytes<ReminderStatus>(), now = now
        let sentIndex = ReminderStatus.allCases.firstIndex(of: .sent), failedIndex = ReminderStatus.allCases.firstIndex(of: .failed)
        let first = max(from, window.first), last = min(today, window.last)
        guard first <= last else { return }
        for day in first...last {
            let (sent, failed) = try await database.read { db in
                var sent = 0, failed = 0
                _ = try db.forEachRawRow("""
                    SELECT scheduled_for, CAST(status AS TEXT) FROM reminders WHERE scheduled_for >= ? AND scheduled_for < ? AND scheduled_for < ?
                    """, arguments: [SQLiteTime.dayString(daysSinceEpoch: Int64(day)), SQLiteTime.dayString(daysSinceEpoch: Int64(day + 1)),
                                     SQLiteTime.string(now)]) { row in
                    guard row.seconds(0) != nil else { return }
                    let status = statuses.index(in: row, column: 1)
                    if status == sentIndex { sent += 1 }
                    if status == failedIndex { failed += 1 }
                }
                return (sent, failed)
            }
            tally.reminders.sent.days[day - window.first] = sent
            tally.reminders.failed.days[day - window.first] = failed
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

    /// Deliveries the devices confirmed, each counted once a day and event, from `from` (a
    /// day) on, along the receipts' time index, one day per read (each receipt is looked up
    /// for its event and delivery). The days read replace what the tally had for them.
    func readReceipts(into tally: DashboardTally, from: Int) async throws {
        let window = tally.window
        var day = max(from, window.first)
        while day <= min(today, window.last) {
            let end = day + 1
            let counts = try await database.read { [day] db in
                var counts = DailyReceipts()
                _ = try db.forEachRawRow("""
                    SELECT created_at, CAST(event AS TEXT), CAST(delivery_id AS TEXT) FROM push_receipts
                    WHERE created_at >= ? AND created_at < ? ORDER BY created_at
                    """, arguments: [SQLiteTime.dayString(daysSinceEpoch: Int64(day)), SQLiteTime.dayString(daysSinceEpoch: Int64(end))]) { row in
                    guard let seconds = row.seconds(0), let delivery = row.text(2) else { return }
                    counts.add(day: TimestampBytes.day(ofSeconds: seconds), opened: row.text(1, is: DailyReceipts.opened),
                               received: row.text(1, is: DailyReceipts.received), delivery: delivery, window: window)
                }
                counts.finishDay(window: window)
                return counts
            }
            for index in (day - window.first)..<(end - window.first) {
                tally.pushes.received.days[index] = counts.received.days[index]
                tally.pushes.opened.days[index] = counts.opened.days[index]
            }
            day = end
        }
    }
}

/// Receipts read in time order, each delivery counted once a day and event: only one day's
/// deliveries are remembered at a time.
struct DailyReceipts {
    static let received = Array("received".utf8), opened = Array("opened".utf8)
    var received = DayCounts(), opened = DayCounts()
    private var day: Int?
    private var receivedToday: Set<String> = [], openedToday: Set<String> = []

    mutating func add(day: Int, opened isOpened: Bool, received isReceived: Bool, delivery: String, window: DayWindow) {
        if day != self.day {
            finishDay(window: window)
            self.day = day
        }
        if isReceived { receivedToday.insert(delivery) }
        if isOpened { openedToday.insert(delivery) }
    }

    mutating func finishDay(window: DayWindow) {
        if let day {
            received.add(day: day, in: window, receivedToday.count)
            opened.add(day: day, in: window, openedToday.count)
        }
        receivedToday.removeAll(keepingCapacity: true)
        openedToday.removeAll(keepingCapacity: true)
    }
}

/// A value filled by a walk's rows, one read after another (never two at once).
final class Box<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
