import Foundation

/// Expiry status as the user sees it: Expired before today in their timezone, Expiring
/// soon within 30 days, Safe after that.
public enum ExpiryStatus: String, CaseIterable, Sendable {
    case expired
    case expiringSoon = "expiring_soon"
    case safe

    public var label: String {
        switch self {
        case .expired: "Expired"
        case .expiringSoon: "Expiring soon"
        case .safe: "Safe"
        }
    }
}

/// A user's calendar: their timezone (or UTC when the stored name is not one), today in
/// it, and what that makes of an expiry date.
public struct UserCalendar: Sendable, Equatable {
    public static let soonDays: Int64 = 30

    /// The name as stored, which may be anything the app accepted.
    public let storedTimezone: String
    /// False when the stored name is not a timezone: the calendar is UTC and the profile says so.
    public let isValidTimezone: Bool
    /// Today's date in the user's calendar, as days since 1970-01-01.
    public let today: Int64

    public init(timezone: String, now: Date = Date()) {
        storedTimezone = timezone
        let zone = Self.zone(named: timezone)
        isValidTimezone = zone != nil
        let offset = Int64((zone ?? TimeZone(identifier: "UTC")!).secondsFromGMT(for: now))
        let (days, _) = SQLiteTime.floorDivide(Int64(now.timeIntervalSince1970.rounded(.down)) + offset, 86_400)
        today = days
    }

    /// The one test of a stored timezone, for profiles and campaigns alike. Foundation also
    /// accepts abbreviations and offsets ("EST", "GMT+1"); the app stores IANA names, which
    /// have an area and a slash, or UTC. Foundation's list of known names leaves out links
    /// such as Asia/Kolkata, so the name is looked up, not listed. Empty, too long, spaces and
    /// control characters count as invalid.
    public static func zone(named name: String) -> TimeZone? {
        guard !name.isEmpty, name.utf8.count <= 64,
            name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            name == "UTC" || name.contains("/")
        else { return nil }
        return TimeZone(identifier: name)
    }

    public var todayString: String { SQLiteTime.dayString(daysSinceEpoch: today) }
    /// The last day that still counts as expiring soon.
    public var soonLimitString: String { SQLiteTime.dayString(daysSinceEpoch: today + Self.soonDays) }

    /// Days from today to `expiry` ('YYYY-MM-DD'); nil for a date that is not one.
    public func daysRemaining(until expiry: String) -> Int64? {
        Self.days(expiry).map { $0 - today }
    }

    public func status(of expiry: String) -> ExpiryStatus? {
        guard let remaining = daysRemaining(until: expiry) else { return nil }
        return remaining < 0 ? .expired : remaining <= Self.soonDays ? .expiringSoon : .safe
    }

    /// 'YYYY-MM-DD' as days since the epoch, or nil for anything else.
    static func days(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]), (1...12).contains(m),
            (1...31).contains(d)
        else { return nil }
        let days = SQLiteTime.daysSinceEpoch(year: y, month: m, day: d)
        return SQLiteTime.dayString(daysSinceEpoch: days) == text ? days : nil
    }
}

/// What support may see of secrets in the data: only their last characters.
public enum Masked {
    /// `keep` last characters after a fixed run of dots; nothing of a value that short.
    public static func tail(_ value: String?, keep: Int) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value.count > keep ? "•••" + value.suffix(keep) : "•••"
    }
}
