import Foundation

extension DashboardSnapshot {
    static let dailyLength = 365, weeklyLength = 53, categoriesShown = 12

    /// Every figure at `now` from what the tally holds. Pure: no database.
    init(tally: DashboardTally, now: Date) {
        let context = DeriveContext(tally: tally, now: now)
        countedAt = tally.countedAt
        updatedAt = tally.updatedAt
        today = SQLiteTime.dayString(daysSinceEpoch: Int64(context.today))
        totalUsers = tally.users.total
        usersByActivity = tally.users.byActivity
        headlines = Dictionary(uniqueKeysWithValues: DashboardRange.allCases.map { ($0, context.headlines(range: $0)) })
        charts = context.charts()
        cohorts = context.cohorts()
        retention = context.retention()
        criteria = context.criteria()
    }
}

/// The arithmetic behind the snapshot, with the active users a day worked out once.
struct DeriveContext {
    let tally: DashboardTally
    let now: Date
    let nowSeconds: Int64
    let today: Int
    let window: DayWindow
    /// Distinct users active each day of the window.
    let activePerDay: [Int]
    /// The spans every headline compares.
    let comparison: PeriodComparison
    /// Distinct users active today, on the last 7 and 30 days, and in the spans before.
    let active: ActiveUsers
    /// WAU and MAU on the same weekday of the last weeks, for their trend lines.
    let rolling: RollingActive

    init(tally: DashboardTally, now: Date) {
        self.tally = tally
        self.now = now
        nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        today = TimestampBytes.day(ofSeconds: nowSeconds)
        window = tally.window
        var perDay = [Int](repeating: 0, count: DayWindow.length)
        for (index, word) in tally.events.activeDays.enumerated() where word != 0 {
            var bits = word
            let base = (index % DayWindow.words) * 64
            while bits != 0 {
                perDay[base + bits.trailingZeroBitCount] += 1
                bits &= bits - 1
            }
        }
        activePerDay = perDay
        comparison = PeriodComparison(nowSeconds: nowSeconds, today: today)
        active = ActiveUsers(tally: tally, comparison: comparison)
        rolling = RollingActive(tally: tally, today: today)
    }

    // MARK: Days and weeks

    /// Monday of the week of `day` (1970-01-01 was a Thursday).
    static func weekStart(_ day: Int) -> Int {
        day - ((day % 7 + 7 + 3) % 7)
    }

    func dayLabel(_ day: Int) -> String { SQLiteTime.dayString(daysSinceEpoch: Int64(day)) }

    var dailyDays: [Int] { Array((today - DashboardSnapshot.dailyLength + 1)...today) }
    /// The Mondays of the last 53 weeks, this one last.
    var weekStarts: [Int] {
        let current = Self.weekStart(today)
        return (0..<DashboardSnapshot.weeklyLength).reversed().map { current - 7 * $0 }
    }

    func share(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : Double(part) / Double(whole)
    }

    func daily(_ counts: DayCounts) -> [Int] { dailyDays.map { counts.on($0, in: window) } }
    func weekly(_ counts: DayCounts, throughYesterday: Bool = false) -> [Int] {
        weekStarts.map { start in
            counts.sum(from: start, to: min(start + 6, throughYesterday ? today - 1 : today), in: window)
        }
    }
}

/// A set of days as bits of the seven activity words, to test a user in seven ANDs.
struct ActivityMask {
    var words = [UInt64](repeating: 0, count: DayWindow.words)

    init?(from: Int, to: Int, window: DayWindow) {
        let low = max(from - window.first, 0)
        let high = min(to - window.first, DayWindow.length - 1)
        guard low <= high else { return nil }
        for index in low...high { words[index >> 6] |= 1 << UInt64(index & 63) }
    }

    func matches(_ activeDays: [UInt64], slot: Int) -> Bool {
        let base = slot * DayWindow.words
        for word in 0..<DayWindow.words where activeDays[base + word] & words[word] != 0 { return true }
        return false
    }
}

/// Users active in the spans the headlines compare, counted in one pass over the activity
/// bits. A span that ends at a time of day takes its whole days from the bits and its last
/// day from the users active on it before that time (`ActiveBeforeCut`); nil when that day
/// was not read for this moment.
struct ActiveUsers {
    var today = 0, week = 0, month = 0
    var yesterdaySoFar: Int?, weekBefore: Int?, monthBefore: Int?, monthToYesterday: Int?

    init(tally: DashboardTally, comparison: PeriodComparison) {
        let window = tally.window
        let day = comparison.today
        let current = [(day, day), (day - 6, day), (day - 29, day)].map {
            ActivityMask(from: $0.0, to: $0.1, window: window)
        }
        let cutSpans = [
            comparison.yesterdayToTheSameTime, comparison.rangeBefore(7), comparison.rangeBefore(30),
            comparison.range(30, endingDaysAgo: 1),
        ]
        let cut = tally.events.activeBeforeCut
        let usable = cut.at == comparison.nowSeconds
        let parts = cutSpans.map { span -> (mask: ActivityMask?, cutDay: Int) in
            let days = comparison.wholeDays(of: span)
            return (ActivityMask(from: days.first, to: days.last, window: window), days.cutDay)
        }
        var counts = [Int](repeating: 0, count: current.count)
        var earlier = [Int](repeating: 0, count: parts.count)
        let known = parts.map { usable && cut.days[$0.cutDay] != nil }
        let words = tally.events.activeDays
        for slot in 0..<tally.users.slots.count {
            for (index, mask) in current.enumerated() where mask?.matches(words, slot: slot) == true {
                counts[index] += 1
            }
            for (index, part) in parts.enumerated() where known[index] {
                if part.mask?.matches(words, slot: slot) == true || cut.contains(day: part.cutDay, slot: slot) == true {
                    earlier[index] += 1
                }
            }
        }
        (today, week, month) = (counts[0], counts[1], counts[2])
        func value(_ index: Int) -> Int? { known[index] ? earlier[index] : nil }
        (yesterdaySoFar, weekBefore, monthBefore, monthToYesterday) = (value(0), value(1), value(2), value(3))
    }
}
