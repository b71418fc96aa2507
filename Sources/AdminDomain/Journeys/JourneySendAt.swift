import Foundation

/// When a journey's push goes to someone who entered: at their own reminder time
/// (`notification_settings.daily_time`), or between two local hours. Quiet hours are always
/// kept, and a push that cannot go within `JourneySendAt.horizon` of the entry is not sent:
/// the entry expires, counted.
public enum JourneySendAt: Sendable, Equatable {
    case dailyTime
    /// From `from`:00 to `to`:00 local time; `to` before `from` runs over midnight.
    case window(from: Int, to: Int)

    public static let horizon: TimeInterval = 86_400
    /// The app's own default reminder time, for a stored one that does not read.
    public static let defaultDailyTime = LocalTime("09:00")!

    public var stored: String {
        switch self {
        case .dailyTime: "daily_time"
        case .window: "window"
        }
    }

    /// The stored columns back; nil when they do not read (a newer panel wrote them).
    public init?(stored: String, from: Int?, to: Int?) {
        switch stored {
        case "daily_time": self = .dailyTime
        case "window":
            guard let from, let to, (0...23).contains(from), (0...23).contains(to), from != to else { return nil }
            self = .window(from: from, to: to)
        default: return nil
        }
    }

    public var refusal: String? {
        guard case .window(let from, let to) = self else { return nil }
        if !(0...23).contains(from) || !(0...23).contains(to) {
            return "A sending window's hours must be from 0 to 23."
        }
        if from == to { return "A sending window must not start and end at the same hour." }
        return nil
    }

    /// The first moment at or after `entered` that this rule and the user's quiet hours allow,
    /// or nil when there is none within the horizon. `dailyTime`: the user's stored reminder
    /// time, nil or unreadable meaning the app's default.
    public func due(entered: Date, zone: TimeZone, dailyTime: LocalTime?, quiet: QuietHours) -> Date? {
        let limit = entered.addingTimeInterval(Self.horizon)
        var candidate: Date
        switch self {
        case .dailyTime: candidate = SendTime.next(dailyTime ?? Self.defaultDailyTime, after: entered, in: zone)
        case .window: candidate = entered
        }
        // Quiet hours may push a time out of the window and the window into quiet hours:
        // a few rounds settle it, or show there is no time within the day.
        for _ in 0..<4 {
            if case .window(let from, let to) = self, !Self.hour(of: candidate, in: zone, isIn: from, to) {
                candidate = SendTime.next(LocalTime(String(format: "%02d:00", from))!, after: candidate, in: zone)
            }
            if let period = quiet.quietPeriod {
                let moved = SendTime.outsideQuietHours(candidate, start: period.start, end: period.end, in: zone)
                if moved != candidate {
                    candidate = moved
                    continue
                }
            }
            return candidate <= limit ? candidate : nil
        }
        return nil
    }

    static func hour(of date: Date, in zone: TimeZone, isIn from: Int, _ to: Int) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let hour = calendar.component(.hour, from: date)
        return from < to ? (from..<to).contains(hour) : hour >= from || hour < to
    }
}
