import Foundation

extension DeriveContext {
    /// The days a card's trend line covers for a range: the range's days, at most 90.
    func sparkDays(_ range: DashboardRange) -> [Int] {
        Array((today - min(range.days, 90) + 1)...today)
    }

    /// A level at the end of each day (today: now).
    func levelLine(_ range: DashboardRange, _ level: (Int) -> Double?) -> Sparkline {
        Sparkline(values: sparkDays(range).map(level), step: .day)
    }

    /// A count on each day.
    func dailyLine(_ range: DashboardRange, _ counts: DayCounts) -> Sparkline {
        Sparkline(values: sparkDays(range).map { Double(counts.on($0, in: window)) }, step: .day)
    }

    /// A count in each week from Monday (this week so far the last), the range's weeks, at most 13.
    func weeklyLine(_ range: DashboardRange, _ counts: DayCounts) -> Sparkline {
        let starts = weekStarts.suffix(min(range.weeks, 13))
        return Sparkline(
            values: starts.map { Double(counts.sum(from: $0, to: min($0 + 6, today), in: window)) }, step: .week)
    }

    /// Users not deleted at the end of `day`, as the headline counts them then.
    func usersThrough(_ day: Int) -> Int {
        tally.users.signUps.through(day, in: window) + tally.users.unreadableSignUps
    }
}
