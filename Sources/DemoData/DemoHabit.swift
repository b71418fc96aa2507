import AdminDomain
import Foundation

/// Each seeded user's habitual local hour: the hour of the day they mostly open the app.
/// One deterministic function of the user id, shared by the seeder (which places most of a
/// user's recent activity in it) and the demo's simulated apps (which open a push more often
/// when it arrives near it), so that both tell the same story.
public enum DemoHabit {
    /// Relative weights of the 24 local hours as a habit: peaks at breakfast (08), lunch
    /// (12-13) and the evening (19-21), a few night owls after 23.
    static let weights: [Int] = [
        2, 1, 1, 0, 0, 1, 3, 8, 14, 6, 4, 5,  // 00-11
        11, 10, 4, 3, 3, 5, 7, 12, 15, 12, 6, 3,  // 12-23
    ]
    private static let totalWeight = weights.reduce(0, +)
    /// Its own stream, apart from the seeder's per-user streams: adding the habit moved no other row.
    private static let salt: UInt64 = 0x4841_4249_5448_4F55

    /// About this share of a user's events in the last 60 days fall in their habitual hour.
    public static let share = 0.7
    /// How often a simulated app opens a push that arrives near the habit, and otherwise.
    public static let openedNear = 0.25, openedFar = 0.10

    /// The local hour, 0-23.
    public static func hour(user: Int64) -> Int {
        var random = SeedRandom(seed: salt, stream: UInt64(bitPattern: user))
        return weightedHour(&random)
    }

    /// An hour drawn from the same daily rhythm: where the rest of a user's activity falls.
    static func weightedHour(_ random: inout SeedRandom) -> Int {
        var roll = random.int(0...(totalWeight - 1))
        for (hour, weight) in weights.enumerated() {
            if roll < weight { return hour }
            roll -= weight
        }
        return 23
    }

    /// A local hour within one hour of the habit (the hour before, the hour itself or the
    /// one after, around midnight).
    public static func isNear(localHour: Int, habit: Int) -> Bool {
        let apart = abs(localHour - habit) % 24
        return min(apart, 24 - apart) <= 1
    }

    /// The chance that a push arriving at `localHour` is opened by a user with that habit.
    public static func openChance(localHour: Int, habit: Int) -> Double {
        isNear(localHour: localHour, habit: habit) ? openedNear : openedFar
    }

    /// The local hour of `moment` where a user with the stored timezone `name` is: a name
    /// that is not a timezone reads as UTC, the panel's default, as the seeder placed it.
    public static func localHour(at moment: Date, timezone name: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = UserCalendar.zone(named: name) ?? TimeZone(identifier: "UTC")!
        return calendar.component(.hour, from: moment)
    }
}
