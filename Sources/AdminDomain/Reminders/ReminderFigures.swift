import Foundation

/// What happened to the reminders due in one window (`scheduled_for` in the window and not
/// in the future), as docs/reminders.md defines each figure.
public struct ReminderFigures: Sendable, Equatable, Codable {
    /// Every reminder due, whatever its status.
    public var due = 0
    /// Status 'sent'.
    public var sent = 0
    /// Sent with a readable `sent_at` at most 60 s after `scheduled_for` (and not before it).
    public var sentOnTime = 0
    public var failed = 0
    public var cancelled = 0
    /// Still 'scheduled' more than 5 minutes after `scheduled_for`.
    public var overdue = 0
    /// Still 'scheduled', due within the last 5 minutes: not yet overdue.
    public var waiting = 0
    /// Of those waiting, due within the last 60 s: they can still be sent on time, so they
    /// are in no share yet.
    public var undecided = 0
    /// Sent and opened (an `opened_at`).
    public var opened = 0
    /// Sent, but `sent_at` is NULL, a number or text that does not read: counted apart,
    /// never in a percentile.
    public var sentTimeUnreadable = 0
    /// Sent with `sent_at` before `scheduled_for` (clocks that disagree): counted apart,
    /// never in a percentile, never on time.
    public var sentBeforeScheduled = 0
    /// Seconds from `scheduled_for` to `sent_at` of the sent reminders whose times read and
    /// are in order; nil when there are none.
    public var lateness: Lateness?

    public init() {}

    /// Sent on time over the due ones decided: not cancelled (a cancelled reminder was not
    /// meant to go) and not still within their first 60 s (they may yet be on time: counted
    /// against the share, a healthy backend's last minute read as failure).
    public var onTimeShare: Double? {
        let decided = decided
        return decided > 0 ? Double(sentOnTime) / Double(decided) : nil
    }

    /// Due, not cancelled and past their first 60 s: each was sent on time or it was not.
    public var decided: Int { due - cancelled - undecided }

    /// SC-011's success rate: sent / (sent + failed).
    public var successRate: Double? {
        sent + failed > 0 ? Double(sent) / Double(sent + failed) : nil
    }

    /// Opened over sent.
    public var openedShare: Double? {
        sent > 0 ? Double(opened) / Double(sent) : nil
    }

    /// Nearest-rank percentiles (the value at rank ⌈p·n⌉ of the sorted list) and the largest.
    public struct Lateness: Sendable, Equatable, Codable {
        public var count: Int
        public var p50: Int64
        public var p90: Int64
        public var p99: Int64
        public var max: Int64

        public init(count: Int, p50: Int64, p90: Int64, p99: Int64, max: Int64) {
            self.count = count
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
        }
    }
}
