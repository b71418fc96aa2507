import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 34, triggers: the users who crossed `inactive_days` and `first_days` between two
/// evaluations equal SQL written here from the definitions, with rows one second either side
/// of each boundary and hostile times; read in pages of any size, the same users.
@Suite(.timeLimit(.minutes(20))) struct TriggerScanTests {
    static let now = Int64(TemporaryDatabase.seedNow.timeIntervalSince1970)
    static let previous = now - 60

    static func text(_ seconds: Int64) -> String {
        // Formatted here, not by the code under test.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Users whose `column` is each of the boundary and hostile values for a lag of `days`.
    static func addUsers(_ column: String, days: Int64, to queue: DatabaseQueue) throws -> [Int64] {
        let lag = days * 86_400
        let values: [DatabaseValueConvertible] = [
            text(previous - lag), text(previous - lag + 1),  // the window's start: out, in
            text(now - lag), text(now - lag + 1),  // its end: in, out
            text(now - lag - 30),  // inside
            text(now - lag - 30).replacingOccurrences(of: " ", with: "T"),  // 'T': not the backend's form
            String(text(now - lag - 50).prefix(17)) + "99",  // a second that does not exist, inside the text range
            text(now - lag - 30) + ".5",  // fractions
            12_345, "soon",  // a number, a word
            text(now + 3_600),  // stamped in the future
        ]
        return try queue.write { db in
            try values.enumerated().map { index, value in
                try db.execute(
                    sql: """
                        INSERT INTO users (email, password_hash, created_at, last_active_at) VALUES (?, 'x', ?, ?)
                        """,
                    arguments: [
                        "trigger-\(column)-\(index)@odd.test", column == "created_at" ? value : text(now - 86_400),
                        column == "last_active_at" ? value : text(now - 3_600),
                    ])
                return db.lastInsertedRowID
            }
        }
    }

    static func all(_ trigger: JourneyTrigger, limit: Int, in queue: DatabaseQueue) throws -> [TriggerCrossing] {
        try queue.read { db in
            var crossings: [TriggerCrossing] = []
            var cursor: TriggerScan.Cursor?
            repeat {
                let page = try TriggerScan.page(
                    trigger, previous: previous, now: now, after: cursor, limit: limit, in: db)
                crossings += page.crossings
                cursor = page.next
            } while cursor != nil
            return crossings
        }
    }

    /// The definition in SQL: the stored text is exactly 'YYYY-MM-DD HH:MM:SS' naming a real
    /// time, and that time is in (previous − lag, now − lag].
    static func expected(_ column: String, days: Int64, extra: String = "1", in queue: DatabaseQueue) throws
        -> [TriggerCrossing]
    {
        try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, \(column) AS t FROM users
                    WHERE typeof(\(column)) = 'text' AND \(column) GLOB
                      '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]'
                      AND strftime('%Y-%m-%d %H:%M:%S', \(column)) = \(column)
                      AND CAST(strftime('%s', \(column)) AS INTEGER) > \(previous - days * 86_400)
                      AND CAST(strftime('%s', \(column)) AS INTEGER) <= \(now - days * 86_400)
                      AND (\(extra))
                    ORDER BY \(column), id
                    """
            ).map { TriggerCrossing(userID: $0["id"], occurrence: $0["t"]) }
        }
    }

    @Test func inactiveDaysEntersThoseWhoseLastActivityCrossedTheLag() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let queue = try DatabaseQueue(path: temp.path)
        let mine = try Self.addUsers("last_active_at", days: 30, to: queue)
        let expected = try Self.expected("last_active_at", days: 30, in: queue)
        // Of the hand-made rows: the start + 1 s, the end and the one inside.
        #expect(Set(expected.map(\.userID)).intersection(mine) == [mine[1], mine[2], mine[4]])
        for limit in [1, 2, 3, 1_000] {
            #expect(try Self.all(.inactiveDays(30), limit: limit, in: queue) == expected, "pages of \(limit)")
        }
    }

    @Test func firstDaysEntersNewUsersWithFewerItemsThanAsked() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 50, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let queue = try DatabaseQueue(path: temp.path)
        let mine = try Self.addUsers("created_at", days: 2, to: queue)
        // The start + 1 s user has 2 live items and a deleted one; the end user 3 live ones.
        try await queue.write { db in
            for (user, live, deleted) in [(mine[1], 2, 1), (mine[2], 3, 0)] {
                for index in 0..<(live + deleted) {
                    try db.execute(
                        sql: """
                            INSERT INTO food_items (user_id, name, expiry_date, created_at, updated_at, deleted_at)
                            VALUES (?, 'Rice', '2027-01-01', '2026-11-16 00:00:00', '2026-11-16 00:00:00', ?)
                            """, arguments: [user, index < live ? nil : "2026-11-17 00:00:00"])
                }
            }
            try db.execute(
                sql: """
                    INSERT INTO documents (user_id, doc_type, title, expiry_date, created_at, updated_at)
                    VALUES (?, 'passport', 'Passport', '2030-01-01', '2026-11-16 00:00:00', '2026-11-16 00:00:00')
                    """, arguments: [mine[4]])
        }
        let fewer = """
            (SELECT COUNT(*) FROM food_items f WHERE f.user_id = users.id AND f.deleted_at IS NULL)
            + (SELECT COUNT(*) FROM documents d WHERE d.user_id = users.id AND d.deleted_at IS NULL) < 3
            """
        let expected = try Self.expected("created_at", days: 2, extra: fewer, in: queue)
        // The start + 1 s (2 live) and the one inside (1 document) enter; the end (3) does not.
        #expect(Set(expected.map(\.userID)).intersection(mine) == [mine[1], mine[4]])
        for limit in [1, 3, 1_000] {
            #expect(
                try Self.all(.firstDays(2, fewerItems: 3), limit: limit, in: queue) == expected, "pages of \(limit)")
        }
    }

    @Test func valuesOutOfRangeAreRefusedWithASentence() {
        #expect(JourneyTrigger.inactiveDays(6).refusal == "Inactive days must be from 7 to 180: “6” is not.")
        #expect(JourneyTrigger.inactiveDays(180).refusal == nil)
        #expect(JourneyTrigger.firstDays(15, fewerItems: 3).refusal == "First days must be from 1 to 14: “15” is not.")
        #expect(JourneyTrigger.firstDays(2, fewerItems: 51).refusal == "Fewer items must be from 1 to 50: “51” is not.")
    }
}
