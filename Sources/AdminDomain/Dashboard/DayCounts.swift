/// The days the dashboard keeps per-day counts for: 448 days (seven 64-bit words of
/// activity bits a user) from `first`, days counted from 1970-01-01 UTC. A full count
/// places it so that a year and its previous period fit, with four weeks to spare for the
/// incremental refreshes that follow.
public struct DayWindow: Sendable, Equatable {
    public static let length = 448
    static let words = length / 64
    public var first: Int

    /// The window for a full count on `today`.
    static func ending(near today: Int) -> DayWindow {
        DayWindow(first: today - (length - 29))
    }

    var last: Int { first + Self.length - 1 }

    func index(_ day: Int) -> Int? {
        let index = day - first
        return index >= 0 && index < Self.length ? index : nil
    }

    /// Whether `today` still leaves room for the figures that look ahead of it.
    func covers(today: Int) -> Bool {
        today - first >= 385 && today + 2 <= last
    }
}

/// A count per day of the window, with what fell before it (or had no readable day, where
/// the caller says so) and after it.
struct DayCounts: Sendable, Equatable {
    var before = 0
    var days = [Int](repeating: 0, count: DayWindow.length)
    var after = 0

    mutating func add(day: Int, in window: DayWindow, _ amount: Int = 1) {
        let index = day - window.first
        if index < 0 {
            before += amount
        } else if index < DayWindow.length {
            days[index] += amount
        } else {
            after += amount
        }
    }

    /// Everything up to the end of `day`.
    func through(_ day: Int, in window: DayWindow) -> Int {
        let index = day - window.first
        if index < 0 { return before }
        return before + days[0...min(index, DayWindow.length - 1)].reduce(0, +)
            + (index >= DayWindow.length ? after : 0)
    }

    /// The days from `from` to `to`, both included, as far as the window holds them.
    func sum(from: Int, to: Int, in window: DayWindow) -> Int {
        let low = max(from - window.first, 0)
        let high = min(to - window.first, DayWindow.length - 1)
        return low > high ? 0 : days[low...high].reduce(0, +)
    }

    func on(_ day: Int, in window: DayWindow) -> Int {
        window.index(day).map { days[$0] } ?? 0
    }
}
