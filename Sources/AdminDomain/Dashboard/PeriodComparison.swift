import Foundation

/// The spans the headline figures compare, worked out in one place from the moment of the
/// count so that every card compares like with like: today so far against yesterday up to
/// the same time, this week so far against the same days of last week up to the same time,
/// a rolling range against the range before it up to the same time, and a level against
/// its level at the end of the day a range ago. Each comparison carries the words its card
/// shows, so a card always says what it compares.
struct PeriodComparison {
    /// Seconds, both ends included.
    struct Span: Equatable {
        let from: Int64
        let through: Int64

        func contains(_ seconds: Int64) -> Bool { seconds >= from && seconds <= through }
    }

    let nowSeconds: Int64
    let today: Int

    var secondOfDay: Int64 { nowSeconds - Self.start(of: today) }

    static func start(of day: Int) -> Int64 { Int64(day) * 86_400 }

    // MARK: Spans

    var todaySoFar: Span { Span(from: Self.start(of: today), through: nowSeconds) }
    var yesterdayToTheSameTime: Span { shifted(todaySoFar, days: 1) }
    var weekSoFar: Span { Span(from: Self.start(of: DeriveContext.weekStart(today)), through: nowSeconds) }
    var lastWeekToTheSameTime: Span { shifted(weekSoFar, days: 7) }

    /// The last `days` days, today so far included.
    func range(_ days: Int) -> Span { Span(from: Self.start(of: today - days + 1), through: nowSeconds) }
    /// The `days` days before `range(days)`, up to the same time of day.
    func rangeBefore(_ days: Int) -> Span { range(days, endingDaysAgo: days) }
    /// `range(days)` as it was `back` days ago, at this time of day.
    func range(_ days: Int, endingDaysAgo back: Int) -> Span { shifted(range(days), days: back) }

    private func shifted(_ span: Span, days: Int) -> Span {
        Span(from: span.from - Int64(days) * 86_400, through: span.through - Int64(days) * 86_400)
    }

    /// The whole days of a span and the day its end falls on, cut at the span's time of day:
    /// activity is kept a bit a day, and only the cut day needs its events' times.
    func wholeDays(of span: Span) -> (first: Int, last: Int, cutDay: Int) {
        let first = TimestampBytes.day(ofSeconds: span.from)
        let cutDay = TimestampBytes.day(ofSeconds: span.through)
        return (first, cutDay - 1, cutDay)
    }

    /// Each cut day and its cut: the day's start plus now's time of day.
    var cuts: [Int: Int64] {
        Dictionary(cutDays.map { ($0, Self.start(of: $0) + secondOfDay) }) { first, _ in first }
    }

    /// The days whose events the scan reads with their times: the ends of the earlier spans.
    var cutDays: [Int] {
        [yesterdayToTheSameTime, rangeBefore(7), rangeBefore(30)].map { TimestampBytes.day(ofSeconds: $0.through) }
    }

    // MARK: Words

    /// "10:04 UTC".
    var clock: String {
        let minutes = Int(secondOfDay / 60)
        return String(format: "%02d:%02d UTC", minutes / 60, minutes % 60)
    }

    var againstYesterday: String { "than yesterday up to \(clock)" }

    var againstLastWeek: String {
        let weekday = Self.weekdays[today - DeriveContext.weekStart(today)]
        return today == DeriveContext.weekStart(today)
            ? "than last Monday up to \(clock)"
            : "than last week from Monday to \(weekday) \(clock)"
    }

    func againstRangeBefore(_ days: Int) -> String { "than the \(days) days before, up to the same time" }

    func againstLevel(daysAgo days: Int) -> String {
        "than at the end of \(SQLiteTime.dayString(daysSinceEpoch: Int64(today - days)))"
    }

    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}
