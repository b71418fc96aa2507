import AdminDomain
import DemoData
import Foundation
import GRDB
import TestSupport
import Testing

/// The seeded users' habits (issue 35): each user's recent activity, read back in their own
/// timezone by Foundation here (UTC to local, the other way from the seeder), falls mostly in
/// the habitual hour that `DemoHabit` names for them, across DST changes; and some users have
/// too few days or none, so that the usual hour's fallbacks show.
@Suite(.timeLimit(.minutes(20))) struct DemoHabits {
    struct Event {
        let user: Int64
        let zone: TimeZone
        let at: Date
    }

    /// Every event of the 60 days before `seedNow` of users whose timezone is a real one.
    static func recentEvents(users: Int) async throws -> (events: [Event], users: [Int64: TimeZone]) {
        let temp = try await TemporaryDatabase.seeded(users: users, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let queue = try DatabaseQueue(path: temp.path)
        let since = TemporaryDatabase.seedNow.addingTimeInterval(-60 * 86_400)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return try await queue.read { db in
            var zones: [Int64: TimeZone] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT id, timezone FROM users WHERE timezone = 'UTC' OR timezone GLOB '[A-Z]*/[A-Za-z_]*'")
            {
                let name: String = row["timezone"]
                if let zone = TimeZone(identifier: name) { zones[row["id"]] = zone }
            }
            var events: [Event] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT user_id, created_at FROM activity_events WHERE created_at >= ? AND kind <> 'sign_up'",
                arguments: [format.string(from: since)])
            while let row = try rows.next() {
                guard let zone = zones[row["user_id"]], let at = format.date(from: row["created_at"]) else { continue }
                events.append(Event(user: row["user_id"], zone: zone, at: at))
            }
            return (events, zones)
        }
    }

    static func localHour(_ event: Event) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = event.zone
        return calendar.component(.hour, from: event.at)
    }

    static func localDay(_ event: Event) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = event.zone
        let parts = calendar.dateComponents([.year, .month, .day], from: event.at)
        return "\(parts.year!)-\(parts.month!)-\(parts.day!)"
    }

    @Test func recentActivityFallsMostlyInEachUsersHabitualLocalHour() async throws {
        let (events, zones) = try await Self.recentEvents(users: 1_500)
        var days: [Int64: [Int: Set<String>]] = [:]
        var allDays: [Int64: Set<String>] = [:]
        var atHabit = 0
        for event in events {
            let hour = Self.localHour(event)
            let day = Self.localDay(event)
            days[event.user, default: [:]][hour, default: []].insert(day)
            allDays[event.user, default: []].insert(day)
            if hour == DemoHabit.hour(user: event.user) { atHabit += 1 }
        }
        let share = Double(atHabit) / Double(events.count)
        #expect(share > 0.6 && share < 0.85, "share of recent events at the habitual hour: \(share)")

        // Users with five days or more: their busiest hour by days is the habit.
        let own = allDays.filter { $0.value.count >= 5 }.map(\.key)
        let matching = own.filter { user in
            let byHour = days[user]!.mapValues(\.count)
            return byHour[DemoHabit.hour(user: user)] == byHour.values.max()
        }
        #expect(own.count > zones.count / 4, "\(own.count) of \(zones.count) users have 5 active days or more")
        #expect(
            Double(matching.count) > 0.9 * Double(own.count),
            "\(matching.count) of \(own.count) users' busiest hour is their habit")

        // Each fallback has users: 1-4 days, and none.
        let few = allDays.values.filter { $0.count <= 4 }.count
        let none = zones.count - allDays.count
        #expect(few > zones.count / 20, "\(few) users with 1-4 active days")
        #expect(none > zones.count / 20, "\(none) users with no activity in the window")
    }

    @Test func habitsPeakAtBreakfastLunchAndEveningWithAFewNightOwls() {
        let hours = (1...10_000).map { DemoHabit.hour(user: Int64($0)) }
        func share(_ range: [Int]) -> Double { Double(hours.filter(range.contains).count) / Double(hours.count) }
        #expect(share([7, 8, 9]) > 0.15)
        #expect(share([12, 13]) > 0.1)
        #expect(share([19, 20, 21]) > 0.2)
        #expect(share([23, 0, 1, 2]) > 0.01 && share([23, 0, 1, 2]) < 0.1)
        #expect(Set(hours).count >= 18, "a spread, not a few hours")
        #expect(
            (1...100).allSatisfy { DemoHabit.hour(user: Int64($0)) == hours[$0 - 1] }, "the same user, the same hour")
    }

    /// Europe/Lisbon and America/New_York leave summer time inside the window (25 October and
    /// 1 November 2026): a fixed offset would put one side of the change an hour off the habit.
    @Test func theHabitHoldsOnBothSidesOfADaylightSavingChange() async throws {
        let (events, _) = try await Self.recentEvents(users: 1_500)
        for name in ["Europe/Lisbon", "America/New_York"] {
            let inZone = events.filter { $0.zone.identifier == name }
            let summer = inZone.filter { $0.zone.isDaylightSavingTime(for: $0.at) }
            let winter = inZone.filter { !$0.zone.isDaylightSavingTime(for: $0.at) }
            for (season, group) in [("summer", summer), ("winter", winter)] {
                let share =
                    Double(group.filter { Self.localHour($0) == DemoHabit.hour(user: $0.user) }.count)
                    / Double(max(1, group.count))
                #expect(group.count > 30, "\(name) \(season): \(group.count) events")
                #expect(share > 0.55, "\(name) \(season): \(share) of events at the habitual hour")
            }
        }
    }

    /// The domain's refresh, run on the seeded data, finds each habit for users with five days
    /// or more, and the demo has users for each basis: own, peers (a platform and locale with
    /// 20 users of their own hour), everyone (too few days and no such group), none (no row).
    @Test func theRefreshFindsTheHabitsAndEveryBasisHasUsers() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 3_000, now: TemporaryDatabase.seedNow)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        _ = try await UsualHourRefresh(database: database, defaultTimeZone: "UTC").run(now: TemporaryDatabase.seedNow)
        let rows = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT h.user_id, h.hour, h.active_days,
                           EXISTS (SELECT 1 FROM panel_usual_hour_peers p WHERE p.platform = h.platform
                             AND p.locale = h.locale) AS has_peers
                    FROM panel_usual_hours h
                    """
            ).map {
                (
                    user: $0["user_id"] as Int64, hour: $0["hour"] as Int, days: $0["active_days"] as Int,
                    peers: $0["has_peers"] as Bool
                )
            }
        }
        let own = rows.filter { $0.days >= 5 }
        let few = rows.filter { $0.days < 5 }
        let matching = own.filter { $0.hour == DemoHabit.hour(user: $0.user) }
        #expect(
            Double(matching.count) > 0.85 * Double(own.count),
            "\(matching.count) of \(own.count) own hours are the habit")
        #expect(own.count > 600, "own: \(own.count)")
        #expect(few.filter(\.peers).count > 20, "peers: \(few.filter(\.peers).count)")
        #expect(few.filter { !$0.peers }.count > 20, "everyone: \(few.filter { !$0.peers }.count)")
        #expect(3_000 - rows.count > 300, "no row (none): \(3_000 - rows.count)")
    }
}
