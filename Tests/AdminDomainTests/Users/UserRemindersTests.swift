import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// A user's reminders page on hostile rows: every count equals SQL written here from the
/// definitions (overdue: still scheduled over 5 minutes after a time that reads), and the
/// pages hold every matching reminder once, latest time first.
@Suite(.timeLimit(.minutes(20))) struct UserRemindersPages {
    static let now = SQLiteTime.date("2026-11-18 12:00:00")!
    static let user: Int64 = 5

    /// 120 ordinary reminders (sent on time, sent late, failed, cancelled, scheduled, by turns,
    /// an hour apart back from now) and hostile ones, for user 5; a few of user 6's.
    static func make() async throws -> (TemporaryDatabase, PanelDatabase) {
        let temp = try TemporaryDatabase()
        let backend = try DatabaseQueue(path: temp.path)
        _ = try await backend.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try await backend.write { db in
            let (tables, indexes) = try AppSchema.statements()
            for statement in tables + indexes { try db.execute(sql: statement) }
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, password_hash, timezone, created_at) VALUES
                      (5, 'five@reach.test', 'x', 'Asia/Tokyo', '2026-01-01 00:00:00'),
                      (6, 'six@reach.test', 'x', 'UTC', '2026-01-01 00:00:00');
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 7)
                    INSERT INTO food_items (id, user_id, name, expiry_date, created_at, updated_at, deleted_at)
                    SELECT i, 5, 'Food ' || i, '2026-12-01', '2026-01-01 00:00:00', '2026-01-01 00:00:00', CASE
                      WHEN i = 7 THEN '2026-11-01 00:00:00' END FROM n;
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 7)
                    INSERT INTO documents (id, user_id, doc_type, title, number, expiry_date, created_at, updated_at)
                    SELECT i, 5, 'passport', 'Passport ' || i, 'P1234567' || i, '2027-01-01', '2026-01-01 00:00:00',
                      '2026-01-01 00:00:00' FROM n;
                    INSERT INTO food_items (id, user_id, name, expiry_date, created_at, updated_at)
                      VALUES (50, 6, 'Not yours', '2026-12-01', '2026-01-01 00:00:00', '2026-01-01 00:00:00');
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
                    INSERT INTO reminders
                      (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at, opened_at)
                    SELECT 5, CASE WHEN i % 2 = 0 THEN 'food' ELSE 'document' END, i % 7 + 1, i % 4,
                           datetime('2026-11-18 12:00:00', '-' || i || ' hours'),
                           CASE i % 5 WHEN 0 THEN 'sent' WHEN 1 THEN 'sent' WHEN 2 THEN 'failed' WHEN 3 THEN 'cancelled'
                             ELSE 'scheduled' END,
                           CASE i % 5 WHEN 0 THEN datetime('2026-11-18 12:00:30', '-' || i || ' hours')
                                      WHEN 1 THEN datetime('2026-11-18 12:05:00', '-' || i || ' hours') END,
                           CASE WHEN i % 10 = 0 THEN datetime('2026-11-18 13:00:00', '-' || i || ' hours') END
                    FROM n;
                    INSERT INTO reminders
                      (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at)
                    VALUES
                      (5, 'food', 1, 1, '2026-11-18 11:58:00', 'scheduled', NULL),
                      (5, 'food', 1, 1, '2026-11-19 09:00:00', 'scheduled', NULL),
                      (5, 'food', 2, 1, '2026-11-20 09:00:00', 'scheduled', NULL),
                      (5, 'food', 3, 1, 1795000000, 'scheduled', NULL),
                      (5, 'food', 3, 1, 'not a time', 'scheduled', NULL),
                      (5, 'document', 2, 'x', '2026-11-17 09:00:00', 'sent', NULL),
                      (5, 'document', 3, 1, '2026-11-17 10:00:00', 'sent', '2026-11-17 09:00:00'),
                      (5, 'document', 4, 1, '2026-11-17 11:00:00', 'sent', 12345),
                      (5, 'food', 7, 1, '2026-11-16 09:00:00', 'sent', '2026-11-16 09:00:10'),
                      (5, 'food', 50, 1, '2026-11-16 10:00:00', 'sent', '2026-11-16 10:00:10'),
                      (5, 'food', 999, 1, '2026-11-16 11:00:00', 'failed', NULL),
                      (6, 'food', 50, 1, '2026-11-16 09:00:00', 'scheduled', NULL),
                      (6, 'food', 50, 1, '2026-11-16 09:00:00', 'sent', '2026-11-16 09:00:00');
                    """)
        }
        return (temp, try await PanelDatabase.open(path: temp.path))
    }

    /// Each status as SQL, from the definitions: a well-formed time is one `datetime` gives back
    /// unchanged (`IS`: a time that does not read makes NULL, which NOT would keep NULL).
    static func statusSQL(_ status: UserReminders.Status) -> String {
        let overdue =
            "(status = 'scheduled' AND datetime(scheduled_for) IS scheduled_for "
            + "AND scheduled_for < datetime('2026-11-18 12:00:00', '-5 minutes'))"
        return switch status {
        case .overdue: overdue
        case .scheduled: "(status = 'scheduled' AND NOT \(overdue))"
        default: "status = '\(status.rawValue)'"
        }
    }

    @Test func countsEqualSQLAndPagesHoldEveryReminderOnce() async throws {
        let (temp, database) = try await Self.make()
        defer { temp.remove() }
        let reminders = UserReminders(database: database)
        let expected = try await database.read { db -> [String: Int] in
            var counts: [String: Int] = [:]
            for status in UserReminders.Status.allCases {
                counts[status.rawValue] = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM reminders WHERE user_id = 5 AND \(Self.statusSQL(status))")
            }
            counts["opened"] = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM reminders WHERE user_id = 5 AND opened_at IS NOT NULL")
            counts["all"] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reminders WHERE user_id = 5")
            return counts
        }
        #expect(expected["overdue"] == 24 && expected["all"] == 131, "the fixture as meant: \(expected)")
        let first = try #require(try await reminders.page(userID: Self.user, filter: .init(), number: 1, now: Self.now))
        let summary = first.summary
        #expect(
            [summary.scheduled, summary.overdue, summary.sent, summary.failed, summary.cancelled, summary.opened]
                == [
                    expected["scheduled"], expected["overdue"], expected["sent"], expected["failed"],
                    expected["cancelled"], expected["opened"],
                ])
        #expect(
            summary.scheduled + summary.overdue + summary.sent + summary.failed + summary.cancelled == expected["all"],
            "every status counted")
        #expect(
            first.matching == 131 && first.pageCount == 3 && first.email == "five@reach.test"
                && first.timezone == "Asia/Tokyo")

        for status in [nil] + UserReminders.Status.allCases.map(Optional.some) {
            for kind in [nil, ItemKind.food, .document] {
                let filter = UserReminders.Filter(status: status, kind: kind)
                let sql =
                    "SELECT id FROM reminders WHERE user_id = 5" + (status.map { " AND \(Self.statusSQL($0))" } ?? "")
                    + (kind.map { " AND item_kind = '\($0.rawValue)'" } ?? "") + " ORDER BY scheduled_for DESC, id DESC"
                let ids = try await database.read { db in try Int64.fetchAll(db, sql: sql) }
                var seen: [Int64] = []
                var number = 1
                while true {
                    let page = try #require(
                        try await reminders.page(userID: Self.user, filter: filter, number: number, now: Self.now))
                    #expect(page.matching == ids.count, "\(filter)")
                    #expect(page.pageCount == max(1, (ids.count + 49) / 50), "\(filter)")
                    seen += page.reminders.map(\.id)
                    if number >= page.pageCount { break }
                    #expect(page.reminders.count == 50)
                    number += 1
                }
                #expect(seen == ids, "every reminder once, in order: \(filter)")
            }
        }
        // One item's reminders.
        let item = try #require(
            try await reminders.page(userID: Self.user, filter: .init(kind: .food, itemID: 3), number: 1, now: Self.now)
        )
        let itemCount = try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM reminders WHERE user_id = 5 AND item_kind = 'food' AND item_id = 3") ?? 0
        }
        #expect(
            item.matching == itemCount && item.reminders.allSatisfy { $0.itemID == 3 && $0.itemKind == .known(.food) })
    }

    @Test func hostileRowsReadAsWhatTheyAre() async throws {
        let (temp, database) = try await Self.make()
        defer { temp.remove() }
        var rows: [UserReminders.Reminder] = []
        for number in 1...3 {
            rows += try #require(
                try await UserReminders(database: database).page(
                    userID: Self.user, filter: .init(), number: number, now: Self.now)
            ).reminders
        }
        func row(_ scheduled: String, _ item: Int64) throws -> UserReminders.Reminder {
            try #require(rows.first { $0.scheduledFor == scheduled && $0.itemID == item })
        }
        #expect(try row("2026-11-17 10:00:00", 3).lateness == -3_600, "sent an hour before its time")
        #expect(
            try row("2026-11-17 09:00:00", 2).lateness == nil && row("2026-11-17 09:00:00", 2).sentAt == nil,
            "sent with no time")
        #expect(try row("2026-11-17 09:00:00", 2).daysBefore == nil, "days_before 'x' is not a number")
        #expect(try row("2026-11-17 11:00:00", 4).lateness == nil, "a number for sent_at does not read")
        #expect(try row("2026-11-16 09:00:00", 7).itemDeleted && row("2026-11-16 09:00:00", 7).itemName == "Food 7")
        #expect(try row("2026-11-16 10:00:00", 50).itemName == nil, "another user's item is not named")
        #expect(try row("2026-11-16 11:00:00", 999).itemName == nil)
        #expect(try row("2026-11-18 11:58:00", 1).overdue == false, "two minutes after its time is not overdue")
        #expect(try row("2026-11-20 09:00:00", 2).overdue == false, "in the future")
        #expect(rows.first?.scheduledFor == "not a time", "text sorts after every time, as stored")
        #expect(!rows.contains { $0.scheduledFor == "not a time" && $0.overdue })
        #expect(
            UserReminders.local("2026-11-17 10:00:00", in: TimeZone(identifier: "Asia/Tokyo")!) == "2026-11-17 19:00:00"
        )
        #expect(UserReminders.local("not a time", in: TimeZone(identifier: "Asia/Tokyo")!) == nil)
    }

    @Test func anUnknownUserHasNoReminderPage() async throws {
        let (temp, database) = try await Self.make()
        defer { temp.remove() }
        #expect(
            try await UserReminders(database: database).page(userID: 987, filter: .init(), number: 1, now: Self.now)
                == nil)
    }
}

/// The reminders page's statements for every filter read one user's rows through
/// (user_id, scheduled_for), with no sort of their own: cheap for the heaviest user.
@Suite(.timeLimit(.minutes(20))) struct UserRemindersPlans {
    @Test func everyFilterReadsThroughTheUsersIndex() async throws {
        let (temp, database) = try await UserRemindersPages.make()
        defer { temp.remove() }
        for status in [nil] + UserReminders.Status.allCases.map(Optional.some) {
            for (kind, item) in [(nil, nil), (ItemKind.food, nil), (.document, Int64(3))] {
                let conditions = UserReminders.conditions(
                    userID: 5, filter: .init(status: status, kind: kind, itemID: item), now: UserRemindersPages.now)
                for literal in [UserReminders.countSQL(conditions), UserReminders.rowsSQL(conditions, offset: 2_000)] {
                    let (sql, plan) = try await database.read { db in
                        var (sql, bound) = try literal.build(db)
                        if sql.contains(":today") { bound += ["today": "2026-11-18"] }
                        return (sql, try queryPlan(db, sql, bound))
                    }
                    #expect(
                        plan.contains {
                            $0.hasPrefix("SEARCH reminders USING") && $0.contains("INDEX reminders_user (user_id=?")
                        }, "\(plan)")
                    // "SCAN r" walks the page's own 50 rows, not a table.
                    assertNoTableScan(plan.filter { $0 != "SCAN r" })
                    // Only the final order of the page's 50 rows may sort; the index orders the rest.
                    #expect(
                        plan.filter { $0.contains("TEMP B-TREE") }.count <= (sql.contains("LIMIT") ? 1 : 0), "\(plan)")
                }
            }
        }
    }
}
