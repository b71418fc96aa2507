import AdminDomain
import Foundation
import GRDB
import Testing
import TestSupport

/// Issue 33, alerts: the backend stops sending while reminders fall due, then resumes.
@Suite(.timeLimit(.minutes(3))) struct ReminderAlertTests {
    static let now = Int64(TemporaryDatabase.seedNow.timeIntervalSince1970)
    static func text(_ seconds: Int64) -> String { SQLiteTime.string(secondsSinceEpoch: seconds) }

    @Test func aStoppedBackendRaisesItsAlertsAndTheyGoWhenItResumes() async throws {
        let temp = try TemporaryDatabase.seeded(users: 300, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let lastSent = Self.now - 2 * 3_600
        // The backend sent its last reminder two hours ago; since then 70 fell due, a minute apart.
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: """
                INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at)
                VALUES (1, 'food', 1, 1, ?, 'sent', ?)
                """, arguments: [Self.text(lastSent - 10), Self.text(lastSent)])
            for minute in 0..<70 {
                try db.execute(sql: """
                    INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                    VALUES (?, 'document', 1, 7, ?, 'scheduled')
                    """, arguments: [1 + minute % 200, Self.text(Self.now - Int64(minute) * 60)])
            }
        }
        let clock = ReminderHealthFigureTests.TestClock(Self.now)
        let monitor = ReminderHealthMonitor(database: try await PanelDatabase.open(path: temp.path), now: { clock.date })
        try await monitor.refresh()
        let stopped = try #require(monitor.latest())
        let kinds = Set(stopped.alerts.map(\.kind))
        #expect(kinds == [.nothingSent, .overdueAboveThreshold, .onTimeBelowTarget])
        let nothingSent = try #require(stopped.alerts.first { $0.kind == .nothingSent })
        // 60 due in (now - 1 h, now]: minutes 0 to 59; since the last sent reminder.
        #expect(nothingSent.sentence == "No reminder was sent in the last hour while 60 fell due; the last was sent at \(Self.text(lastSent)) UTC.")
        #expect(nothingSent.since == Date(timeIntervalSince1970: TimeInterval(lastSent)))
        let overdue = try #require(stopped.alerts.first { $0.kind == .overdueAboveThreshold })
        // Minutes 6 to 59 are more than 5 minutes late; 0 to 5 are still waiting.
        #expect(overdue.sentence.hasPrefix("54 reminders due in the last hour are still waiting"))
        let firstSeen = try #require(stopped.alerts.first { $0.kind == .onTimeBelowTarget }).since
        #expect(firstSeen == clock.date)

        // Still stopped a refresh later: the alert keeps its first time.
        clock.advance(30)
        try await monitor.refresh()
        #expect(monitor.latest()?.alerts.first { $0.kind == .onTimeBelowTarget }?.since == firstSeen)

        // It resumes: everything due is sent ten seconds after its time.
        try await DatabaseQueue(path: temp.path).write { db in
            try db.execute(sql: """
                UPDATE reminders SET status = 'sent', sent_at = datetime(scheduled_for, '+10 seconds')
                WHERE status = 'scheduled' AND scheduled_for > ? AND scheduled_for <= ?
                """, arguments: [Self.text(Self.now - 3 * 3_600), Self.text(clock.now)])
        }
        clock.advance(30)
        try await monitor.refresh()
        #expect(monitor.latest()?.alerts == [])
    }

    @Test func appDataOlderThanTheSilenceIsNamedWithItsTime() async throws {
        let temp = try TemporaryDatabase.seeded(users: 300, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let later = Self.now + 3 * 3_600
        let queue = try DatabaseQueue(path: temp.path)
        // A row stamped in the future is not trusted as a sign of life.
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (1, 'login', ?)",
                           arguments: [Self.text(later + 86_400)])
        }
        let newest = try await queue.read { db in
            try String.fetchOne(db, sql: """
                SELECT MAX(t) FROM (SELECT created_at AS t FROM activity_events UNION ALL SELECT created_at FROM users
                                    UNION ALL SELECT created_at FROM push_receipts) WHERE t <= ?
                """, arguments: [Self.text(later)])
        }
        let clock = ReminderHealthFigureTests.TestClock(later)
        let monitor = ReminderHealthMonitor(database: try await PanelDatabase.open(path: temp.path), now: { clock.date })
        try await monitor.refresh()
        let alert = try #require(monitor.latest()?.alerts.first { $0.kind == .noAppData })
        #expect(alert.sentence == "No app data since \(try #require(newest)) UTC: the app's backend may have stopped writing.")
        #expect(SQLiteTime.string(alert.since) == newest)
    }
}
