import Foundation

/// A local time of day, 'HH:MM' as the app stores it.
public struct LocalTime: Sendable, Hashable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    /// Only 'HH:MM' with a real hour and minute; anything else is not a time.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
        else { return nil }
        self.hour = hour
        self.minute = minute
    }

    var minutes: Int { hour * 60 + minute }
    public var description: String { String(format: "%02d:%02d", hour, minute) }
}

/// When a campaign push may reach one person: their timezone, their quiet hours.
public enum SendTime {
    /// The next moment at or after `after` when it is `time` where the user is. On a day
    /// when that time does not exist (clocks go forward) the first moment after the gap.
    public static func next(_ time: LocalTime, after: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(hour: time.hour, minute: time.minute, second: 0)
        if calendar.date(after, matchesComponents: components) { return after }
        return calendar.nextDate(after: after, matching: components, matchingPolicy: .nextTime) ?? after
    }

    /// `planned`, or the end of the quiet period it falls in. Quiet hours whose end is before
    /// their start run over midnight; equal start and end mean none.
    public static func outsideQuietHours(_ planned: Date, start: LocalTime?, end: LocalTime?, in zone: TimeZone) -> Date {
        guard let start, let end, start != end else { return planned }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: planned)
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let quiet = start.minutes < end.minutes
            ? (start.minutes..<end.minutes).contains(now)
            : now >= start.minutes || now < end.minutes
        return quiet ? next(end, after: planned, in: zone) : planned
    }
}
