import Foundation
import GRDB
import Synchronization

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

/// A user's quiet hours as the sender reads the two stored values (`quiet_start`,
/// `quiet_end`): the profile shows this same reading, so what support sees is what sending does.
public enum QuietHours: Sendable, Equatable {
    /// Neither is set.
    case none
    case period(start: LocalTime, end: LocalTime)
    /// Both the same time: no quiet period.
    case sameStartAndEnd(LocalTime)
    /// Something is stored that is not a time 'HH:MM' ("25:99", "7pm"), or only one end is:
    /// the sender treats it as none. The stored values, as text, nil for NULL.
    case unreadable(start: String?, end: String?)

    public init(start: DatabaseValue, end: DatabaseValue) {
        switch (
            String.fromDatabaseValue(start).flatMap(LocalTime.init),
            String.fromDatabaseValue(end).flatMap(LocalTime.init)
        ) {
        case (let first?, let last?): self = first == last ? .sameStartAndEnd(first) : .period(start: first, end: last)
        case _ where start.isNull && end.isNull: self = .none
        default: self = .unreadable(start: Self.stored(start), end: Self.stored(end))
        }
    }

    private static func stored(_ value: DatabaseValue) -> String? {
        value.isNull ? nil : String.fromDatabaseValue(value) ?? value.description
    }

    /// The period the sender keeps pushes out of, if any.
    public var quietPeriod: (start: LocalTime, end: LocalTime)? {
        if case .period(let start, let end) = self { (start, end) } else { nil }
    }

    /// Quiet hours that end earlier in the day than they start run over midnight.
    public var crossesMidnight: Bool {
        quietPeriod.map { $0.end.minutes < $0.start.minutes } ?? false
    }
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
    public static func outsideQuietHours(_ planned: Date, start: LocalTime?, end: LocalTime?, in zone: TimeZone) -> Date
    {
        guard let start, let end, start != end else { return planned }
        // Arithmetic on the zone's offset rather than a calendar: this runs for every
        // delivery of a launch.
        let offset = zone.secondsFromGMT(for: planned)
        let unix = Int64(planned.timeIntervalSince1970.rounded(.down))
        let local = ((unix + Int64(offset)) % 86_400 + 86_400) % 86_400
        let now = Int(local / 60)
        let quiet =
            start.minutes < end.minutes
            ? (start.minutes..<end.minutes).contains(now)
            : now >= start.minutes || now < end.minutes
        guard quiet else { return planned }
        let minutesToEnd = Int64((end.minutes - now + 1_440) % 1_440)
        var moved = unix - local % 60 + minutesToEnd * 60
        // A clock change on the way: the end is a wall-clock time.
        moved += Int64(offset - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(moved))))
        return Date(timeIntervalSince1970: TimeInterval(moved))
    }
}

/// When a campaign's deliveries are due.
public enum CampaignSchedule: Sendable, Equatable {
    case now
    case at(Date)
    /// The next time it is this local time where each recipient is.
    case localTime(LocalTime)

    /// As stored in a draft: `send_at` and `local_time`, both nil for now.
    public init(sendAt: PanelTime?, localTime: String?) {
        if let time = localTime.flatMap(LocalTime.init) {
            self = .localTime(time)
        } else if let date = sendAt?.date {
            self = .at(date)
        } else {
            self = .now
        }
    }

    var plannedAt: Date? {
        if case .at(let date) = self { date } else { nil }
    }

    var localTime: LocalTime? {
        if case .localTime(let time) = self { time } else { nil }
    }
}

extension SendTime {
    /// `panel_due_at(planned, timezone, quiet_start, quiet_end, local_time, default_zone)`:
    /// a delivery's due time, computed in the row's INSERT ... SELECT. A timezone that is
    /// not one uses `default_zone`.
    static let sqlDueAt = DatabaseFunction("panel_due_at", argumentCount: 6, pure: true) { values in
        // Most rows have no local time and no quiet hours: the planned time as it is.
        if values[4].isNull, values[2].isNull || values[3].isNull { return values[0] }
        guard let plannedText = String.fromDatabaseValue(values[0]), var due = SQLiteTime.date(plannedText) else {
            return nil
        }
        let zone = zones.withLock { cache -> TimeZone in
            let name = String.fromDatabaseValue(values[1]) ?? ""
            if let known = cache[name] { return known }
            let zone =
                UserCalendar.zone(named: name) ?? TimeZone(identifier: String.fromDatabaseValue(values[5]) ?? "UTC")
                ?? TimeZone(secondsFromGMT: 0)!
            if cache.count < 2_000 { cache[name] = zone }
            return zone
        }
        if let local = String.fromDatabaseValue(values[4]).flatMap(LocalTime.init) {
            due = next(local, after: due, in: zone)
        }
        if let quiet = QuietHours(start: values[2], end: values[3]).quietPeriod {
            due = outsideQuietHours(due, start: quiet.start, end: quiet.end, in: zone)
        }
        return SQLiteTime.string(due)
    }

    /// `panel_is_timezone(name)`: 1 when the name is a timezone, for the preview's count of
    /// recipients who get the default zone instead.
    static let sqlIsTimeZone = DatabaseFunction("panel_is_timezone", argumentCount: 1, pure: true) { values in
        let name = String.fromDatabaseValue(values[0]) ?? ""
        return zones.withLock { cache -> Bool in
            if cache[name] != nil { return true }
            guard let zone = UserCalendar.zone(named: name) else { return false }
            if cache.count < 2_000 { cache[name] = zone }
            return true
        }
    }

    /// `panel_is_local_time(text)`: 1 for 'HH:MM', for the count of malformed quiet hours.
    static let sqlIsLocalTime = DatabaseFunction("panel_is_local_time", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).flatMap(LocalTime.init) != nil
    }

    static let functions = [sqlDueAt, sqlIsTimeZone, sqlIsLocalTime]

    /// Timezones by name: looking one up is far slower than the rest of a row.
    private static let zones = Mutex<[String: TimeZone]>([:])
}
