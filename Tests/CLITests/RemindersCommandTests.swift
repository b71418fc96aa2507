import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 33, point 5: `admin-panel reminders` prints the health figures; 0, or 3 while an alert holds.
@Suite(.timeLimit(.minutes(20))) struct RemindersCommandTests {
    static func text(_ date: Date) -> String { SQLiteTime.string(date) }

    @Test func healthyExitsZeroAndAStoppedBackendExitsThree() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50)
        defer { temp.remove() }
        let now = Date()
        let queue = try DatabaseQueue(path: temp.path)
        // The backend is alive: a login a minute ago, one reminder sent on time ten minutes ago.
        // Only the test's own reminders: the seed, made at this moment, sometimes put one of its
        // own in the last hour and the shares below moved (seen in a clean run).
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM reminders")
            try db.execute(
                sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (1, 'login', ?)",
                arguments: [Self.text(now.addingTimeInterval(-60))])
            try db.execute(
                sql: """
                    INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at)
                    VALUES (1, 'food', 1, 1, ?, 'sent', ?)
                    """, arguments: [Self.text(now.addingTimeInterval(-600)), Self.text(now.addingTimeInterval(-590))])
        }
        let healthy = try await runPanel(["reminders", "--db", temp.path, "--range", "1h"])
        #expect(healthy.status == 0, "\(healthy.stdout)\(healthy.stderr)")
        #expect(healthy.stdout.contains("sent on time (within 60 s)"))
        #expect(healthy.stdout.contains("No alert."))

        // It stops: 80 reminders fall due over the last 80 minutes and none is sent. Minutes
        // counted from now, not from the first run's start: a busy machine takes tens of
        // seconds over that run, and each row has 30 s either side of its minute.
        let stoppedNow = Date()
        try await queue.write { db in
            for minute in 1...80 {
                try db.execute(
                    sql: """
                        INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status)
                        VALUES (1, 'document', 1, 7, ?, 'scheduled')
                        """, arguments: [Self.text(stoppedNow.addingTimeInterval(-Double(minute) * 60 - 30))])
            }
        }
        let stopped = try await runPanel(["reminders", "--db", temp.path, "--range", "1h"])
        #expect(stopped.status == 3, "\(stopped.stdout)\(stopped.stderr)")
        #expect(stopped.stdout.contains("ALERT since "))
        // Due in the last hour: minutes 1 to 59, of which 5 to 59 are more than 5 minutes late.
        #expect(
            stopped.stdout.contains(
                "55 reminders due in the last hour are still waiting more than 5 minutes after their time"))
        #expect(
            stopped.stdout.contains(
                """
                Only 1.7% of the reminders due in the last hour were sent on time (1 of 60 due more than a minute ago \
                and not cancelled)
                """
            ))
    }

    @Test func anUnknownRangeIsRefusedWithASentence() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let result = try await runPanel(["reminders", "--db", temp.path, "--range", "2h"])
        #expect(result.status != 0 && result.status != 3)
        #expect(result.stderr.contains("There is no range “2h”: choose 1h, 24h, 7d or 30d."))
    }
}
