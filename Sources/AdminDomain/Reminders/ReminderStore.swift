import Foundation

/// The reminders due in the last 30 days as last read, and the figures made from them.
struct ReminderStore: Sendable {
    /// In index order, their `scheduled_for` exactly 'YYYY-MM-DD HH:MM:SS'.
    private(set) var records: [ReminderRecord] = []
    /// The others (a 'T', a time that does not read), with their text: rare.
    private(set) var odd: [(text: String, record: ReminderRecord)] = []
    private(set) var unreadableOutside = 0

    var count: Int { records.count + odd.count }

    /// Those in the window whose `scheduled_for` does not read: in no range.
    var unreadableInside: Int { odd.reduce(0) { $0 + ($1.record.readable ? 0 : 1) } }

    /// Drops what was read after `after` (it was just read again) and before `keepingFrom`
    /// (out of every range now), and adds `read`.
    mutating func replace(after: Int64, with read: ReminderScan.Result, keepingFrom: Int64) {
        let afterText = SQLiteTime.string(secondsSinceEpoch: after), keepText = SQLiteTime.string(secondsSinceEpoch: keepingFrom)
        // Rows sort in the index by their text; a canonical one's text orders as its time, so
        // those kept are a stretch of the array, found by halving.
        let start = Self.firstIndex(in: records) { $0.scheduled > keepingFrom }
        let end = Self.firstIndex(in: records) { $0.scheduled > after }
        records = Array(records[start..<max(start, end)]) + read.rows
        odd.removeAll { $0.text > afterText || $0.text <= keepText }
        odd += read.odd
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

    /// The first index whose record satisfies `belongs`, in records where every one that does
    /// comes after every one that does not.
    private static func firstIndex(in records: [ReminderRecord], where belongs: (ReminderRecord) -> Bool) -> Int {
        var low = 0, high = records.count
        while low < high {
            let middle = (low + high) / 2
            if belongs(records[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    func reports(now: Int64, options: ReminderAlertOptions) -> [ReminderRange: ReminderHealthReport] {
        var builders = ReminderRange.allCases.map { ReminderReportBuilder(range: $0, now: now) }
        // Per user, the latest due and the latest sent on time and opened: SC-002 for every range at once.
        var users: [Int64: (due: Int64, onTimeOpened: Int64?)] = [:]
        users.reserveCapacity(records.count / 2)
        for record in [records, odd.map(\.record)].joined() where record.readable && record.scheduled <= now {
            var touched = false
            for index in builders.indices where record.scheduled > builders[index].from {
                builders[index].add(record)
                touched = true
            }
            guard touched else { continue }
            let onTimeOpened = record.status == .sent && record.timing == .measured
                && record.lateness <= ReminderAccumulator.onTimeWithin && record.opened
            let previous = users[record.user]
            users[record.user] = (max(previous?.due ?? record.scheduled, record.scheduled),
                                  onTimeOpened ? max(previous?.onTimeOpened ?? record.scheduled, record.scheduled) : previous?.onTimeOpened)
        }
        var reports: [ReminderRange: ReminderHealthReport] = [:]
        // The hour's chart is the day's: its 24 hourly points.
        for builder in builders.sorted(by: { $0.range == .day && $1.range != .day }) {
            var due = 0, met = 0
            for (_, user) in users where user.due > builder.from {
                due += 1
                if let onTime = user.onTimeOpened, onTime > builder.from { met += 1 }
            }
            reports[builder.range] = builder.report(sc002: ReminderCriterion(numerator: met, denominator: due, target: options.onTimeTarget),
                                                    successTarget: options.successTarget,
                                                    points: builder.range == .hour ? reports[.day]?.points : nil)
        }
        return reports
    }
}
