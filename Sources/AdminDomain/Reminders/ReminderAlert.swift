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

    /// Where `since` comes from.
    public enum Began: String, Sendable, Codable {
        /// The rows say it: the last reminder sent, the oldest one overdue, the newest app row.
        case fromData = "from_data"
        /// Only when the panel first saw it: it may have begun before (issue 46: a backend
        /// stopped ten days ago read "since" the panel's start).
        case firstSeen = "first_seen"
    }

    public let kind: Kind
    /// What is wrong, in a sentence staff can act on.
    public let sentence: String
    /// When it began to hold, as far as the panel can tell: see `began`.
    public let since: Date
    public let began: Began
    /// When the figures that raised it were counted: the age is counted to this time.
    public let asOf: Date

    public init(kind: Kind, sentence: String, since: Date, began: Began, asOf: Date) {
        self.kind = kind
        self.sentence = sentence
        self.since = since
        self.began = began
        self.asOf = asOf
    }

    /// How long it has held at `asOf`, in words: "10 days", "3 hours", "25 minutes".
    public var age: String {
        Self.words(max(0, asOf.timeIntervalSince(since)))
    }

    static func words(_ seconds: TimeInterval) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        switch seconds {
        case ..<60: return "under a minute"
        case ..<3_600: return unit(Int(seconds / 60), "minute")
        case ..<172_800: return unit(Int(seconds / 3_600), "hour")
        default: return unit(Int(seconds / 86_400), "day")
        }
    }
}
