import GRDB

/// A calendar day written 'YYYY-MM-DD', the way the app stores dates and filters take
/// them. Only real days are days: 2026-02-30 is not one.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible, DatabaseValueConvertible {
    public let text: String

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]), (1...12).contains(m),
            (1...31).contains(d),
            SQLiteTime.dayString(daysSinceEpoch: SQLiteTime.daysSinceEpoch(year: y, month: m, day: d)) == text
        else { return nil }
        self.text = text
    }

    public var description: String { text }

    public var daysSinceEpoch: Int64 {
        let parts = text.split(separator: "-").compactMap { Int64($0) }
        return SQLiteTime.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.text < rhs.text }

    public var databaseValue: DatabaseValue { text.databaseValue }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Day? {
        String.fromDatabaseValue(dbValue).flatMap(Day.init)
    }
}

/// Days from `from` to `to`, both included; either end may be open.
public struct DayRange: Sendable, Hashable {
    public var from: Day?
    public var to: Day?

    public init(from: Day? = nil, to: Day? = nil) {
        self.from = from
        self.to = to
    }

    public var isOpen: Bool { from == nil && to == nil }

    /// Both ends given, the last before the first: a mistake to name, not an empty range.
    public var endsBeforeItStarts: Bool {
        guard let from, let to else { return false }
        return to < from
    }

    /// The sentence that refuses such a range; `what` names it ("The sign-up range").
    public func reversedSentence(_ what: String) -> String? {
        guard endsBeforeItStarts, let from, let to else { return nil }
        return "\(what) ends on \(to), before it starts on \(from): swap the two dates, or correct one."
    }
}
