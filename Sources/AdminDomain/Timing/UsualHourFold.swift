import Foundation

/// Folds one user's events into their activity days and makes their row: pure, so the
/// refresh's first build, its reads by id and its aged rows all count the same way.
public struct UsualHourFold: Sendable {
    /// Stamps this far after now are a clock ahead, not activity.
    public static let futureSlack: Int64 = 300

    public let now: Int64
    public let defaultZone: TimeZone
    /// As configured: Foundation names UTC "GMT".
    public let defaultZoneName: String

    public init(now: Int64, defaultZoneName: String) {
        self.now = now
        self.defaultZoneName = defaultZoneName
        defaultZone = TimeZone(identifier: defaultZoneName) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// The zone a user's days are counted in, and its name as stored.
    public func zone(named name: String?) -> (ZoneOffsets, String) {
        let (offsets, valid) = ZoneOffsets.named(name, fallback: defaultZone)
        return (offsets, valid ? name ?? defaultZoneName : defaultZoneName)
    }

    /// `days` with `times` (as stored: only the backend's 'YYYY-MM-DD HH:MM:SS' counts) folded
    /// in, kept to the window ending today in `zone`; nil when no day is left in it.
    public func row(
        user: Int64, days: ActivityDays, times: [String], zoneName: String?, locale: String, platform: String
    )
        -> PanelUsualHour?
    {
        let (zone, name) = zone(named: zoneName)
        let today = Int32(floorDay(zone.local(now)))
        var days = days
        let earliest = now - Int64(ActivityDays.window + 1) * 86_400
        for text in times {
            guard let seconds = SQLiteTime.backendSeconds(text), seconds >= earliest, seconds <= now + Self.futureSlack
            else { continue }
            let local = zone.local(seconds)
            days.add(day: Int32(floorDay(local)), hour: Int(UsualHourSendAt.mod(local, 86_400) / 3_600))
        }
        days.keep(upTo: today)
        let counts = days.counts(today: today)
        guard let oldest = days.oldest, let hour = UsualHour.pick(counts: counts) else { return nil }
        let leaves = zone.utc(fromLocal: (Int64(oldest) + Int64(ActivityDays.window)) * 86_400)
        return PanelUsualHour(
            userID: user, days: days.blob, hour: hour, activeDays: days.activeDays(today: today),
            hourDays: counts[hour], platform: platform, locale: locale, zone: name, recheckAt: leaves)
    }

    func floorDay(_ local: Int64) -> Int64 { (local - UsualHourSendAt.mod(local, 86_400)) / 86_400 }
}
