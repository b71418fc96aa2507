import Foundation

/// The reminders due in the last 30 days as last read, and the figures made from them.
struct ReminderStore: Sendable {
    private(set) var records: [ReminderRecord] = []
    private(set) var unreadableOutside = 0

    /// Those in the window whose `scheduled_for` does not read: in no range.
    var unreadableInside: Int { records.reduce(0) { $0 + ($1.readable ? 0 : 1) } }

    /// Drops what was read after `after` (it was just read again) and before `keepingFrom`
    /// (out of every range now), and adds `read`.
    mutating func replace(after: Int64, with read: ReminderScan.Result, keepingFrom: Int64) {
        let afterText = SQLiteTime.string(secondsSinceEpoch: after), keepText = SQLiteTime.string(secondsSinceEpoch: keepingFrom)
        // Rows sort in the index by their text; a canonical one's text orders as its time.
        records.removeAll { record in
            if let odd = record.oddText { return odd > afterText || odd <= keepText }
            return record.scheduled > after || record.scheduled <= keepingFrom
        }
        records += read.rows
        if let outside = read.unreadableOutside { unreadableOutside = outside }
    }

    /// The newest readable `sent_at` not after `now`.
    func lastSent(before now: Int64) -> Int64? {
        records.reduce(nil) { newest, record in
            guard let sent = record.sentAt, sent <= now else { return newest }
            return max(newest ?? sent, sent)
        }
    }

    func reports(now: Int64, options: ReminderAlertOptions) -> [ReminderRange: ReminderHealthReport] {
        var builders = ReminderRange.allCases.map { ReminderReportBuilder(range: $0, now: now) }
        // Per user, the latest due and the latest sent on time and opened: SC-002 for every range at once.
        var users: [Int64: (due: Int64, onTimeOpened: Int64?)] = [:]
        users.reserveCapacity(records.count / 2)
        for record in records where record.readable && record.scheduled <= now {
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
