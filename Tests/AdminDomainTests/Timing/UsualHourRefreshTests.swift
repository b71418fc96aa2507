import AdminDomain
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 35: each user's usual hour, as the refresh keeps it, equals a count written here
/// with Foundation's calendar (not the panel's offsets): per local hour, the local days of
/// the last 60 with an event at that hour; the hour with most, a tie to the busier
/// neighbours, then the earlier. Across both DST changes of the window (Lisbon on 25
/// October, New York on 1 November 2026), a timezone that is not one, no events, few events,
/// and stamps that are not activity (the future, another form, too old).
@Suite(.timeLimit(.minutes(20))) struct UsualHourRefreshTests {
    static let now = SQLiteTime.date("2026-11-18 12:00:00")!

    struct Person {
        let id: Int64
        let zone: String
        /// UTC times of events as stored.
        var events: [String]
    }

    /// The same local wall time on each of `days` days before `now`, written as UTC.
    static func local(_ hour: Int, minute: Int = 15, zone: String, days: [Int]) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let today = calendar.startOfDay(for: now)
        return days.map { back in
            let day = calendar.date(byAdding: .day, value: -back, to: today)!
            return SQLiteTime.string(calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)!)
        }
    }

    /// The test's own count: (hour, active days, days at the hour), or nil hour for none.
    /// Events stamped more than five minutes after `readAt`, when they were read, were a
    /// clock ahead: never activity.
    static func expected(_ events: [String], zone: TimeZone, now: Date, readAt: Date) -> (
        hour: Int?, active: Int, hourDays: Int
    ) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now)
        let first = calendar.date(byAdding: .day, value: -59, to: today)!
        var byHour = [Set<Date>](repeating: [], count: 24)
        for text in events {
            // Only the backend's form; not after now (five minutes' slack).
            guard text.count == 19, !text.contains("T"), let date = SQLiteTime.date(text),
                SQLiteTime.string(date) == text,
                date <= readAt.addingTimeInterval(300)
            else { continue }
            let day = calendar.startOfDay(for: date)
            guard day >= first, day <= today else { continue }
            byHour[calendar.component(.hour, from: date)].insert(day)
        }
        let counts = byHour.map(\.count)
        let active = byHour.reduce(Set<Date>()) { $0.union($1) }.count
        guard let most = counts.max(), most > 0 else { return (nil, active, 0) }
        var best = -1
        for hour in 0..<24 where counts[hour] == most {
            let n = counts[(hour + 23) % 24] + counts[(hour + 1) % 24]
            if best < 0 || n > counts[(best + 23) % 24] + counts[(best + 1) % 24] { best = hour }
        }
        return (best, active, counts[best])
    }

    static func people() -> [Person] {
        var lisbon = Person(
            id: 9_001, zone: "Europe/Lisbon", events: local(20, zone: "Europe/Lisbon", days: Array(0..<50)))
        lisbon.events += local(9, zone: "Europe/Lisbon", days: [1, 2, 3, 40, 41])
        lisbon.events += local(20, minute: 40, zone: "Europe/Lisbon", days: [5, 6])  // the same hour twice a day: once
        var newYork = Person(
            id: 9_002, zone: "America/New_York",
            events: local(7, zone: "America/New_York", days: Array(stride(from: 0, to: 58, by: 2))))
        newYork.events += local(22, zone: "America/New_York", days: Array(stride(from: 1, to: 40, by: 2)))
        let notAZone = Person(id: 9_003, zone: "Mars/Olympus_Mons", events: local(13, zone: "UTC", days: Array(0..<12)))
        let none = Person(id: 9_004, zone: "Europe/Lisbon", events: [])
        let few = Person(id: 9_005, zone: "Asia/Tokyo", events: local(21, zone: "Asia/Tokyo", days: [0, 3, 9]))
        // A tie between 08:00 and 14:00 (6 days each); 13:00 has a day, so 14:00 wins.
        var tie = Person(
            id: 9_006, zone: "UTC",
            events: local(8, zone: "UTC", days: Array(0..<6)) + local(14, zone: "UTC", days: Array(10..<16)))
        tie.events += local(13, zone: "UTC", days: [30])
        // A plain tie, no neighbours: the earlier hour.
        let plainTie = Person(
            id: 9_007, zone: "UTC",
            events: local(3, zone: "UTC", days: [1, 2, 3, 4, 5]) + local(17, zone: "UTC", days: [6, 7, 8, 9, 10]))
        // Not activity: an hour ahead, 'T' form, a fraction, 61 days old, a number.
        let hostile = Person(
            id: 9_008, zone: "UTC",
            events: local(6, zone: "UTC", days: Array(0..<5))
                + [
                    SQLiteTime.string(now.addingTimeInterval(3_600)), "2026-11-17T23:10:00", "2026-11-17 23:10:00.5",
                    SQLiteTime.string(now.addingTimeInterval(-61 * 86_400)), "2026-11-17 25:10:00",
                ])
        return [lisbon, newYork, notAZone, none, few, tie, plainTie, hostile]
    }

    static func insert(_ people: [Person], into queue: DatabaseQueue) throws {
        try queue.write { db in
            for person in people {
                try db.execute(
                    sql:
                        "INSERT INTO users (id, email, password_hash, timezone, created_at) "
                        + "VALUES (?, ?, 'x', ?, '2026-01-01 00:00:00')",
                    arguments: [person.id, "hour\(person.id)@usual.test", person.zone])
                for time in person.events {
                    try db.execute(
                        sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (?, 'login', ?)",
                        arguments: [person.id, time])
                }
            }
        }
    }

    static func rows(_ queue: DatabaseQueue) throws -> [Int64: Row] {
        try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql:
                        "SELECT user_id, hour, active_days, hour_days, zone FROM panel_usual_hours WHERE user_id > 9000"
                )
                .map { ($0["user_id"] as Int64, $0) })
        }
    }

    static func check(_ people: [Person], at now: Date, in queue: DatabaseQueue) throws {
        let rows = try rows(queue)
        for person in people {
            let zone = TimeZone(identifier: person.zone) ?? TimeZone(identifier: "UTC")!
            let want = expected(person.events, zone: zone, now: now, readAt: Self.now)
            let row = rows[person.id]
            if let hour = want.hour {
                #expect(row?["hour"] == hour, "user \(person.id) \(person.zone): hour")
                #expect(row?["active_days"] == want.active, "user \(person.id): active days")
                #expect(row?["hour_days"] == want.hourDays, "user \(person.id): days at the hour")
            } else {
                #expect(row == nil, "user \(person.id) has no activity in the window, so no row")
            }
        }
    }

    @Test func theBuildThenNewEventsByIdThenAgeingEqualTheTestsOwnCount() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        var people = Self.people()
        try Self.insert(people, into: queue)
        // A row whose user id is text (the backend's foreign key off): nobody's.
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql:
                    "INSERT INTO activity_events (user_id, kind, created_at) "
                    + "VALUES ('9001x', 'login', '2026-09-24 03:15:00')"
            )
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        var refresh = UsualHourRefresh(database: database, defaultTimeZone: "UTC")
        refresh.usersPerChunk = 3_000
        refresh.pauseBetweenChunks = .zero
        refresh.usersPerWrite = 3

        // The first build, cut after a chunk (users up to 3,000) and taken up again.
        #expect(try await refresh.run(now: Self.now, maxChunks: 1).building)
        let figures = try await refresh.run(now: Self.now)
        #expect(!figures.building)
        try Self.check(people, at: Self.now, in: queue)
        let built = try Self.rows(queue)
        // Days 1-49 (today's 20:15 is still ahead): the text user id's day is not among them.
        #expect(built[9_001]?["active_days"] as Int? == 49, "an event whose user id is text belongs to nobody")
        #expect(built[9_003]?["zone"] as String? == "UTC", "a timezone that is not one counts in the default zone")
        #expect(built[9_001]?["hour"] as Int? == 20, "Lisbon's evening hour on both sides of the clock change")
        #expect(built[9_002]?["hour"] as Int? == 7, "New York's morning hour on both sides of the clock change")

        // New events after the build, one stamped days back (written late): read by id.
        let late = Self.local(21, zone: "Asia/Tokyo", days: [4, 20])
        people[4].events += late
        try await queue.write { db in
            for time in late {
                try db.execute(
                    sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (9005, 'login', ?)",
                    arguments: [time])
            }
        }
        // And an event of a user id that is no user (the backend's foreign key off): no row.
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql:
                    "INSERT INTO activity_events (user_id, kind, created_at) "
                    + "VALUES (99999, 'login', '2026-11-17 10:00:00')"
            )
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let second = try await refresh.run(now: Self.now)
        #expect(second.eventsRead == 3 && second.updated == 1)
        #expect(
            try await queue.read { db in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM panel_usual_hours WHERE user_id = 99999")
            } == nil)
        try Self.check(people, at: Self.now, in: queue)
        #expect(
            try Self.rows(queue)[9_005]?["active_days"] as Int? == 4, "days 3, 4, 9 and 20 (today's is still ahead)")
        // Nothing new: nothing written.
        #expect(try await refresh.run(now: Self.now).updated == 0)

        // A month on: older days leave the window, rows are made again or go.
        let later = Self.now.addingTimeInterval(30 * 86_400)
        let aged = try await refresh.run(now: later)
        #expect(aged.aged > 0)
        try Self.check(people, at: later, in: queue)
    }

    @Test func eachFallbackLevelIsUsedWhenTheOneBeforeIsMissing() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 20, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let queue = try DatabaseQueue(path: temp.path)
        // Remove the seeded activity: this test's population alone.
        try await queue.write { db in try db.execute(sql: "DELETE FROM activity_events") }
        let refresh = UsualHourRefresh(database: database, defaultTimeZone: "UTC")
        func basis(_ user: Int64) async throws -> UserUsualHour? {
            try await database.read { db in
                try UserUsualHour.load(user: user, now: Self.now, defaultTimeZone: "UTC", in: db)
            }
        }
        // Nobody has five days: no hour at all.
        let few = Person(id: 9_100, zone: "UTC", events: Self.local(10, zone: "UTC", days: [1, 2]))
        try Self.insert([few], into: queue)
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO devices
                      (user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES (9100, 'ios', 'apns', 'tok9100', 'granted', '2026-01-01 00:00:00', '2026-11-17 00:00:00')
                    """)
            try db.execute(sql: "UPDATE users SET locale = 'pt-PT' WHERE id = 9100")
        }
        _ = try await refresh.run(now: Self.now)
        #expect(try await basis(9_100)?.basis == UsualHourBasis.none)
        #expect(try await basis(9_100)?.hour == nil)

        // 19 iOS pt-PT users with their own hour 21: too few for peers; everyone's hour is 21.
        let peers = (0..<19).map {
            Person(
                id: 9_200 + Int64($0), zone: "Europe/Lisbon",
                events: Self.local(21, zone: "Europe/Lisbon", days: Array(0..<6)))
        }
        // ... and 25 Android users at 07: everyone's busiest own hour becomes 07.
        let others = (0..<25).map {
            Person(id: 9_300 + Int64($0), zone: "UTC", events: Self.local(7, zone: "UTC", days: Array(0..<8)))
        }
        try Self.insert(peers + others, into: queue)
        try await queue.write { db in
            for person in peers {
                try db.execute(sql: "UPDATE users SET locale = 'pt-PT' WHERE id = ?", arguments: [person.id])
                try db.execute(
                    sql: """
                        INSERT INTO devices
                          (user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                        VALUES (?, 'ios', 'apns', ?, 'granted', '2026-01-01 00:00:00', '2026-11-17 00:00:00')
                        """, arguments: [person.id, "tok\(person.id)"])
            }
        }
        _ = try await refresh.run(now: Self.now)
        let everyone = try #require(try await basis(9_100))
        #expect(
            everyone.basis == .everyone && everyone.hour == 7,
            "19 peers are too few; everyone's hour: \(everyone.sentence)")

        // A twentieth: the peers' hour applies.
        let twentieth = Person(
            id: 9_219, zone: "Europe/Lisbon", events: Self.local(21, zone: "Europe/Lisbon", days: Array(0..<6)))
        try Self.insert([twentieth], into: queue)
        try await queue.write { db in
            try db.execute(sql: "UPDATE users SET locale = 'pt-PT' WHERE id = 9219")
            try db.execute(
                sql: """
                    INSERT INTO devices
                      (user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)
                    VALUES (9219, 'ios', 'apns', 'tok9219', 'granted', '2026-01-01 00:00:00', '2026-11-17 00:00:00')
                    """)
        }
        _ = try await refresh.run(now: Self.now)
        let peer = try #require(try await basis(9_100))
        #expect(peer.basis == .peers && peer.hour == 21 && peer.peers == 20, "\(peer.sentence)")

        // Three more days of their own: their own hour, 10:00.
        try await queue.write { db in
            for time in Self.local(10, zone: "UTC", days: [3, 4, 5]) {
                try db.execute(
                    sql: "INSERT INTO activity_events (user_id, kind, created_at) VALUES (9100, 'login', ?)",
                    arguments: [time])
            }
            try db.execute(
                sql:
                    "INSERT INTO notification_settings (user_id, quiet_start, quiet_end) "
                    + "VALUES (9100, '09:30', '11:00')"
            )
        }
        _ = try await refresh.run(now: Self.now)
        let own = try #require(try await basis(9_100))
        #expect(own.basis == .own && own.hour == 10 && own.ownHourDays == 5)
        #expect(own.sentence == "10:00, 5 of 60 days; moved to 11:00 by quiet hours")
    }
}
