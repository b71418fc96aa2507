/// A headline figure's recent values for its card's small trend line: oldest first, the
/// last one the period under way (today or this week so far). nil where there was nothing
/// to divide by.
public struct Sparkline: Sendable, Equatable {
    public var values: [Double?]
    /// "day" or "week": what one point is, for the words that describe the line.
    public var step: Step
    public enum Step: String, Sendable, Equatable { case day, week }

    public init(values: [Double?], step: Step) {
        self.values = values
        self.step = step
    }

    /// "the last 30 days", "the last 8 weeks".
    public var span: String { "the last \(values.count) \(step.rawValue)s" }
}

/// Users active in the 7 and the 30 days ending on each of the last `points` weeks' same
/// weekday (today so far the last), in one pass over the activity bits: the trend lines of
/// WAU, MAU and stickiness. Whole days: a point does not cut its last day at a time of day.
struct RollingActive {
    static let points = 8
    var week = [Int](repeating: 0, count: points), month = [Int](repeating: 0, count: points)

    init(tally: DashboardTally, today: Int) {
        let window = tally.window
        let ends = (0..<Self.points).reversed().map { today - 7 * $0 }
        let weekMasks = ends.map { ActivityMask(from: $0 - 6, to: $0, window: window) }
        let monthMasks = ends.map { ActivityMask(from: $0 - 29, to: $0, window: window) }
        let words = tally.events.activeDays
        for slot in 0..<tally.users.slots.count {
            for index in 0..<Self.points {
                // A user not active in the 30 days is not active in the 7 within them.
                guard monthMasks[index]?.matches(words, slot: slot) == true else { continue }
                month[index] += 1
                if weekMasks[index]?.matches(words, slot: slot) == true { week[index] += 1 }
            }
        }
    }
}
