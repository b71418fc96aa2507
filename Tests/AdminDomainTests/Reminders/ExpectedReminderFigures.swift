import AdminDomain
import Foundation
import GRDB

/// The health figures of one window, counted by SQL written here from docs/reminders.md's
/// definitions, without the panel's code.
struct ExpectedReminderFigures: Equatable, CustomStringConvertible {
    var due = 0, sent = 0, sentOnTime = 0, failed = 0, cancelled = 0, overdue = 0, waiting = 0, undecided = 0,
        opened = 0
    var sentTimeUnreadable = 0, sentBeforeScheduled = 0
    /// Nearest rank of the sorted list, computed here.
    var p50: Int64?, p90: Int64?, p99: Int64?, max: Int64?, measured = 0

    var description: String {
        "due \(due) sent \(sent) onTime \(sentOnTime) failed \(failed) cancelled \(cancelled) overdue \(overdue) "
            + "waiting \(waiting) undecided \(undecided) "
            + "opened \(opened) unreadable \(sentTimeUnreadable) before \(sentBeforeScheduled) "
            + "p50 \(p50 ?? -1) p90 \(p90 ?? -1) "
            + "p99 \(p99 ?? -1) max \(max ?? -1) n \(measured)"
    }

    init() {}

    init(_ figures: ReminderFigures) {
        due = figures.due
        sent = figures.sent
        sentOnTime = figures.sentOnTime
        failed = figures.failed
        cancelled = figures.cancelled
        overdue = figures.overdue
        waiting = figures.waiting
        undecided = figures.undecided
        opened = figures.opened
        sentTimeUnreadable = figures.sentTimeUnreadable
        sentBeforeScheduled = figures.sentBeforeScheduled
        p50 = figures.lateness?.p50
        p90 = figures.lateness?.p90
        p99 = figures.lateness?.p99
        max = figures.lateness?.max
        measured = figures.lateness?.count ?? 0
    }

    /// 'YYYY-MM-DD HH:MM:SS' (or 'T' between) naming a real time, as the backend writes it.
    static func readable(_ column: String) -> String {
        """
        (typeof(\(column)) = 'text' AND length(\(column)) = 19
         AND \(column) GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9][ T][0-2][0-9]:[0-5][0-9]:[0-5][0-9]'
         AND CAST(substr(\(column), 6, 2) AS INTEGER) BETWEEN 1 AND 12
         AND CAST(substr(\(column), 9, 2) AS INTEGER) BETWEEN 1 AND 31
         AND CAST(substr(\(column), 12, 2) AS INTEGER) < 24)
        """
    }

    static func seconds(_ column: String) -> String { "CAST(strftime('%s', replace(\(column), 'T', ' ')) AS INTEGER)" }

    /// `filter` narrows the due rows (a kind, a platform split); `from`/`until` in seconds.
    /// Overdue and waiting are as of `now`, which is `until` unless given (a chart's earlier hour).
    static func count(_ db: Database, from: Int64, until: Int64, now: Int64? = nil, filter: String = "1") throws
        -> ExpectedReminderFigures
    {
        let now = now ?? until
        let due =
            "\(readable("scheduled_for")) AND \(seconds("scheduled_for")) > \(from) "
            + "AND \(seconds("scheduled_for")) <= \(until) AND (\(filter))"
        let measured =
            "status = 'sent' AND \(readable("sent_at")) AND \(seconds("sent_at")) >= \(seconds("scheduled_for"))"
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) AS due,
                       SUM(status = 'sent') AS sent,
                       SUM(\(measured) AND \(seconds("sent_at")) - \(seconds("scheduled_for")) <= 60) AS on_time,
                       SUM(status = 'failed') AS failed, SUM(status = 'cancelled') AS cancelled,
                       SUM(status = 'scheduled' AND \(now) - \(seconds("scheduled_for")) > 300) AS overdue,
                       SUM(status = 'scheduled' AND \(now) - \(seconds("scheduled_for")) <= 300) AS waiting,
                       SUM(status = 'scheduled' AND \(now) - \(seconds("scheduled_for")) <= 60) AS undecided,
                       SUM(status = 'sent' AND opened_at IS NOT NULL) AS opened,
                       SUM(status = 'sent' AND NOT \(readable("sent_at"))) AS unreadable,
                       SUM(status = 'sent' AND \(readable("sent_at"))
                         AND \(seconds("sent_at")) < \(seconds("scheduled_for"))) AS before
                FROM reminders r WHERE \(due)
                """)!
        var expected = ExpectedReminderFigures()
        expected.due = row["due"] ?? 0
        expected.sent = row["sent"] ?? 0
        expected.sentOnTime = row["on_time"] ?? 0
        expected.failed = row["failed"] ?? 0
        expected.cancelled = row["cancelled"] ?? 0
        expected.overdue = row["overdue"] ?? 0
        expected.waiting = row["waiting"] ?? 0
        expected.undecided = row["undecided"] ?? 0
        expected.opened = row["opened"] ?? 0
        expected.sentTimeUnreadable = row["unreadable"] ?? 0
        expected.sentBeforeScheduled = row["before"] ?? 0
        let lateness = try Int64.fetchAll(
            db,
            sql: """
                SELECT \(seconds("sent_at")) - \(seconds("scheduled_for")) FROM reminders r WHERE \(due) AND \(measured)
                """
        ).sorted()
        if !lateness.isEmpty {
            // The value at rank ⌈p·n⌉, ranks from 1.
            func at(_ percent: Int) -> Int64 {
                let product = percent * lateness.count
                return lateness[Swift.max(1, product / 100 + (product % 100 == 0 ? 0 : 1)) - 1]
            }
            expected.p50 = at(50)
            expected.p90 = at(90)
            expected.p99 = at(99)
            expected.max = lateness.last
            expected.measured = lateness.count
        }
        return expected
    }

    /// The user's platforms now: 1 iOS only, 2 Android only, 3 both, 0 none.
    static let platforms = """
        CASE WHEN EXISTS (SELECT 1 FROM devices d WHERE d.user_id = r.user_id AND d.platform = 'ios')
             THEN CASE WHEN EXISTS (SELECT 1 FROM devices d WHERE d.user_id = r.user_id AND d.platform = 'android')
               THEN 3 ELSE 1 END
             WHEN EXISTS (SELECT 1 FROM devices d WHERE d.user_id = r.user_id AND d.platform = 'android') THEN 2
               ELSE 0 END
        """
}
