import Foundation

/// The reminders due in the last 30 days as last read, and the figures made from them.
struct ReminderStore: Sendable {
    /// In index order, their `scheduled_for` exactly 'YYYY-MM-DD HH:MM:SS'.
    private(set) var records: [ReminderRecord] = []
    /// The others (a 'T', a time that does not read), with their text: rare.
    private(set) var odd: [(text: String, record: ReminderRecord)] = []
    private(set) var unreadableOutside = 0
    /// Each user's latest reminder due and latest sent on time and opened, noted as rows are
    /// read: a reminder only moves on (scheduled to sent, then opened), so the latest times
    /// only grow until the next full count starts again; times before a range's start are not
    /// counted in it.
    private var users = LatestByUser()

    var count: Int { records.count + odd.count }

    /// Those in the window whose `scheduled_for` does not read: in no range.
    var unreadableInside: Int { odd.reduce(0) { $0 + ($1.record.readable ? 0 : 1) } }

    /// Drops what was read after `after` (it was just read again) and before `keepingFrom`
    /// (out of every range now), and adds `read`. SC-002's users skip a reminder still in its
    /// first minute at `now` (it may yet be sent on time): the next refresh reads it again.
    mutating func replace(after: Int64, with read: ReminderScan.Result, keepingFrom: Int64, now: Int64) {
        let afterText = SQLiteTime.string(secondsSinceEpoch: after)
        let keepText = SQLiteTime.string(secondsSinceEpoch: keepingFrom)
        // Rows sort in the index by their text; a canonical one's text orders as its time, so
        // those kept are a stretch of the array, found by halving.
        let start = Self.firstIndex(in: records) { $0.scheduled > keepingFrom }
        let end = Self.firstIndex(in: records) { $0.scheduled > after }
        // In place: a new array of a month's records each refresh cost more than the figures.
        records.removeSubrange(max(start, end)..<records.count)
        records.removeSubrange(0..<start)
        records.append(contentsOf: read.rows)
        odd.removeAll { $0.text > afterText || $0.text <= keepText }
        odd += read.odd
        for record in read.rows { note(record, now: now) }
        for entry in read.odd { note(entry.record, now: now) }
        if let outside = read.unreadableOutside { unreadableOutside = outside }
    }

    /// The newest readable `sent_at` not after `now`.
    func lastSent(before now: Int64) -> Int64? {
        var newest: Int64?
        for record in [records, odd.map(\.record)].joined() {
            if let sent = record.sentAt, sent <= now, sent > (newest ?? .min) { newest = sent }
        }
        return newest
    }

    /// The scheduled time of the oldest reminder still waiting more than 5 minutes past it.
    func oldestOverdue(now: Int64) -> Int64? {
        let limit = now - ReminderAccumulator.overdueAfter
        func waiting(_ record: ReminderRecord) -> Bool {
            record.status == .scheduled && record.readable && record.scheduled < limit
        }
        // In scheduled order: the first waiting one is the oldest, and none waits past the limit.
        let inOrder = records.prefix { $0.scheduled < limit }.first(where: waiting)?.scheduled
        let other = odd.map(\.record).filter(waiting).map(\.scheduled).min()
        return [inOrder, other].compactMap { $0 }.min()
    }

    /// The first index whose record satisfies `belongs`, in records where every one that does
    /// comes after every one that does not.
    private static func firstIndex(in records: [ReminderRecord], where belongs: (ReminderRecord) -> Bool) -> Int {
        var low = 0
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if belongs(records[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private mutating func note(_ record: ReminderRecord, now: Int64) {
        guard record.readable,
            !(record.status == .scheduled && now - record.scheduled <= ReminderAccumulator.onTimeWithin)
        else { return }
        let onTimeOpened =
            record.status == .sent && record.timing == .measured
            && record.lateness <= ReminderAccumulator.onTimeWithin && record.opened
        users.note(user: record.user, due: record.scheduled, onTimeOpened: onTimeOpened)
    }

    func reports(now: Int64, options: ReminderAlertOptions, platforms: DevicePlatforms) -> [ReminderRange:
        ReminderHealthReport]
    {
        var builders = ReminderRange.allCases.map { ReminderReportBuilder(range: $0, now: now) }
        // Ranges are nested and end now: once a record is before a range's start it is before
        // every shorter one's, so they are tried longest first.
        builders.sort { $0.from < $1.from }
        func add(_ record: ReminderRecord) {
            guard record.readable, record.scheduled <= now, record.scheduled > builders[0].from else { return }
            let userPlatforms = platforms.platforms(of: record.user)
            for index in builders.indices {
                guard record.scheduled > builders[index].from else { break }
                builders[index].add(record, platforms: userPlatforms)
            }
        }
        for record in records { add(record) }
        for entry in odd { add(entry.record) }
        // SC-002 of each range: users with a reminder due since its start, and of those, with
        // one sent on time and opened.
        let starts = builders.map(\.from)
        let (due, met) = users.count(since: starts)
        var reports: [ReminderRange: ReminderHealthReport] = [:]
        // The hour's chart is the day's: its 24 hourly points.
        for (index, builder) in builders.enumerated().sorted(by: {
            $0.element.range == .day && $1.element.range != .day
        }) {
            reports[builder.range] = builder.report(
                sc002: ReminderCriterion(numerator: met[index], denominator: due[index], target: options.onTimeTarget),
                successTarget: options.successTarget, points: builder.range == .hour ? reports[.day]?.points : nil)
        }
        return reports
    }
}
