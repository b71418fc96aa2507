import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 46, finding 4: on a backend stopped ten days ago two reminder alerts read "Since"
/// the panel's start. Where the rows say when the trouble began, the alert says that, and
/// its age in words; the expectations are read with plain SQL.
@Suite(.timeLimit(.minutes(20))) struct ReminderAlertSince {
    static let now = Int64(TemporaryDatabase.seedNow.timeIntervalSince1970)
    static func text(_ seconds: Int64) -> String { SQLiteTime.string(secondsSinceEpoch: seconds) }

    @Test func aBackendStoppedTenDaysAgoIsSaidToHaveStoppedTenDaysAgo() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 300, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let stopped = Self.now - 10 * 86_400
        let queue = try DatabaseQueue(path: temp.path)
        try await queue.write { db in
            // Nothing sent or written since: every reminder due since then still waits, one an hour.
            try db.execute(
                sql: """
                    UPDATE reminders SET status = 'cancelled', sent_at = NULL
                    WHERE scheduled_for > ? OR sent_at > ? OR status = 'scheduled'
                    """, arguments: [Self.text(stopped - 2_060), Self.text(stopped - 2_060)])
            try db.execute(
                sql: """
                    INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at)
                    VALUES (1, 'food', 1, 1, ?, 'sent', ?)
                    """, arguments: [Self.text(stopped - 2_060), Self.text(stopped - 2_000)])
            for hour in 0..<(10 * 24) {
                try db.execute(
                    sql: """
                        INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                        VALUES (?, 'document', 1, 7, ?, 'scheduled')
                        """, arguments: [1 + hour % 200, Self.text(stopped - 900 + Int64(hour) * 3_600)])
            }
            // One a minute over the last hour and the three to come, for the second refresh.
            for minute in -60..<182 {
                try db.execute(
                    sql: """
                        INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                        VALUES (?, 'food', 2, 1, ?, 'scheduled')
                        """, arguments: [1 + (minute + 60) % 200, Self.text(Self.now + Int64(minute) * 60)])
            }
        }
        let (oldestWaiting, lastSent) = try await queue.read { db in
            (
                try String.fetchOne(
                    db,
                    sql: """
                        SELECT MIN(scheduled_for) FROM reminders
                        WHERE status = 'scheduled' AND scheduled_for > ? AND scheduled_for < ?
                        """, arguments: [Self.text(Self.now - 30 * 86_400), Self.text(Self.now - 300)]),
                try String.fetchOne(
                    db,
                    sql: """
                        SELECT MAX(sent_at) FROM reminders
                        WHERE scheduled_for > ? AND scheduled_for <= ? AND sent_at <= ?
                        """, arguments: [Self.text(Self.now - 30 * 86_400), Self.text(Self.now), Self.text(Self.now)])
            )
        }
        let clock = ReminderHealthFigureTests.TestClock(Self.now)
        let monitor = ReminderHealthMonitor(
            database: try await PanelDatabase.open(path: temp.path), now: { clock.date })
        try await monitor.refresh()
        let alerts = try #require(monitor.latest()).alerts
        let overdue = try #require(alerts.first { $0.kind == .overdueAboveThreshold })
        #expect(overdue.began == .fromData)
        #expect(SQLiteTime.string(overdue.since.addingTimeInterval(-300)) == oldestWaiting, "the oldest still waiting")
        #expect(overdue.age == "10 days")
        let nothingSent = try #require(alerts.first { $0.kind == .nothingSent })
        #expect(nothingSent.began == .fromData && SQLiteTime.string(nothingSent.since) == lastSent)
        #expect(nothingSent.age == "10 days")
        // What the rows cannot date is said to be first seen by the panel, at its first count.
        let onTime = try #require(alerts.first { $0.kind == .onTimeBelowTarget })
        #expect(onTime.began == .firstSeen && onTime.since == clock.date && onTime.age == "under a minute")
        clock.advance(3 * 3_600 + 60)
        try await monitor.refresh()
        let later = try #require(monitor.latest()?.alerts.first { $0.kind == .onTimeBelowTarget })
        #expect(later.since == onTime.since && later.age == "3 hours")
    }
}
