import Foundation

/// Adds reminders up into `ReminderFigures`, with the lateness kept exactly: a count per
/// second up to an hour and a list beyond, so the percentiles are those of the full list.
struct ReminderAccumulator {
    private(set) var figures = ReminderFigures()
    private var seconds: [Int] = []
    private var longer: [Int64] = []
    private var measured = 0
    private static let bins = 3_601

    /// Overdue: still scheduled more than this many seconds after its time.
    static let overdueAfter: Int64 = 300
    /// Sent on time: at most this many seconds after its time.
    static let onTimeWithin: Int64 = 60

    mutating func add(_ record: ReminderRecord, now: Int64) {
        figures.due += 1
        switch record.status {
        case .sent:
            figures.sent += 1
            if record.opened { figures.opened += 1 }
            switch record.timing {
            case .measured:
                addLateness(record.lateness)
                if record.lateness <= Self.onTimeWithin { figures.sentOnTime += 1 }
            case .unreadable: figures.sentTimeUnreadable += 1
            case .beforeScheduled: figures.sentBeforeScheduled += 1
            case .none: break
            }
        case .failed: figures.failed += 1
        case .cancelled: figures.cancelled += 1
        case .scheduled:
            if now - record.scheduled > Self.overdueAfter { figures.overdue += 1 } else { figures.waiting += 1 }
            if now - record.scheduled <= Self.onTimeWithin { figures.undecided += 1 }
        case nil: break
        }
    }

    private mutating func addLateness(_ value: Int64) {
        measured += 1
        if value < Int64(Self.bins) {
            if seconds.isEmpty { seconds = [Int](repeating: 0, count: Self.bins) }
            seconds[Int(value)] += 1
        } else {
            longer.append(value)
        }
    }

    /// The figures with their lateness percentiles (nearest rank: the value at ⌈p·n⌉).
    func finished() -> ReminderFigures {
        var result = figures
        guard measured > 0 else { return result }
        let sortedLonger = longer.sorted()
        func value(atRank rank: Int) -> Int64 {
            var seen = 0
            for (second, count) in seconds.enumerated() where count > 0 {
                seen += count
                if seen >= rank { return Int64(second) }
            }
            return sortedLonger[rank - seen - 1]
        }
        func rank(_ percent: Int) -> Int { max(1, (percent * measured + 99) / 100) }
        result.lateness = .init(
            count: measured, p50: value(atRank: rank(50)), p90: value(atRank: rank(90)),
            p99: value(atRank: rank(99)), max: value(atRank: measured))
        return result
    }
}
