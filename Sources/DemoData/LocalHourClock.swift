import AdminDomain
import Foundation

/// Local wall-clock hours to UTC seconds through Foundation's Calendar, so that a DST change
/// moves them as it moves the user's phone. Cached per zone and local date: the seeder asks
/// for tens of millions of them over a few dozen zones and sixty days, and a Calendar call
/// costs microseconds. A name that is not a timezone is read as UTC, the panel's default.
final class LocalHourClock {
    private struct Day: Hashable {
        let zone: String
        let day: Int64
    }

    private var calendars: [String: Calendar] = [:]
    private var days: [Day: [Int64]] = [:]

    /// The UTC second at which `hour` (0-23) of the civil date `day` (days since 1970-01-01)
    /// begins in `zone`. An hour that a change to summer time skips is where Calendar puts it.
    func start(of hour: Int, day: Int64, zone: String) -> Int64 {
        let key = Day(zone: zone, day: day)
        if let starts = days[key] { return starts[hour] }
        let calendar = calendar(zone)
        let (year, month, date) = SQLiteTime.civilDate(daysSinceEpoch: day)
        let starts = (0..<24).map { hour -> Int64 in
            let components = DateComponents(year: year, month: month, day: date, hour: hour)
            let moment =
                calendar.date(from: components)
                ?? Date(timeIntervalSince1970: Double(day * 86_400 + Int64(hour) * 3_600))
            return Int64(moment.timeIntervalSince1970.rounded(.down))
        }
        days[key] = starts
        return starts[hour]
    }

    private func calendar(_ zone: String) -> Calendar {
        if let calendar = calendars[zone] { return calendar }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = UserCalendar.zone(named: zone) ?? TimeZone(identifier: "UTC")!
        calendars[zone] = calendar
        return calendar
    }
}
