import Foundation

/// Something about reminders that staff should know now, over the last hour.
public struct ReminderAlert: Sendable, Equatable, Codable {
    public enum Kind: String, CaseIterable, Sendable, Codable {
        /// The on-time share fell under its target.
        case onTimeBelowTarget = "on_time_below_target"
        /// The success rate (sent / (sent + failed)) fell under its target.
        case successBelowTarget = "success_below_target"
        /// More reminders overdue than the threshold.
        case overdueAboveThreshold = "overdue_above_threshold"
        /// Reminders fell due and none was sent.
        case nothingSent = "nothing_sent"
        /// The app's tables have had no new row for longer than the threshold: the backend stopped writing.
        case noAppData = "no_app_data"
    }

    public let kind: Kind
    /// What is wrong, in a sentence staff can act on.
    public let sentence: String
    /// When it began to hold, as far as the panel can tell (its first refresh that saw it,
    /// or the time of the last row that shows it did not hold).
    public let since: Date

    public init(kind: Kind, sentence: String, since: Date) {
        self.kind = kind
        self.sentence = sentence
        self.since = since
    }
}
