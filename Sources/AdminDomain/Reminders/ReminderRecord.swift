import Foundation

/// One reminder as the health figures need it, read once along the time index.
struct ReminderRecord: Sendable {
    /// How its `sent_at` compares with `scheduled_for`.
    enum Timing: UInt8, Sendable {
        /// Not sent, or sent with a NULL, number or text `sent_at` that does not read.
        case none
        /// Both read and are in order: `lateness` holds the seconds between.
        case measured
        /// Sent, but `sent_at` does not read.
        case unreadable
        /// Sent before it was scheduled.
        case beforeScheduled
    }

    /// `scheduled_for` in seconds since 1970; meaningless when `readable` is false.
    var scheduled: Int64
    var user: Int64
    var lateness: Int64
    var status: ReminderStatus?
    var timing: Timing
    var opened: Bool
    var readable: Bool
    var platforms: ReminderHealthReport.Platforms
    var daysBefore: Int?
    var kind: String
    /// `scheduled_for` as stored when it is not exactly 'YYYY-MM-DD HH:MM:SS': it sorts in the
    /// index by this text, not by its time.
    var oddText: String?
    /// `sent_at` in seconds, when it reads.
    var sentAt: Int64?
}
