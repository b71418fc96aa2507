import Foundation

/// Everything the reminder health page, the banner, /health and the gauges show, as of one refresh.
public struct ReminderHealthSnapshot: Sendable, Equatable {
    public let asOf: Date
    public let reports: [ReminderRange: ReminderHealthReport]
    /// In force now, each with since when.
    public let alerts: [ReminderAlert]
    /// The newest time of a row in the app's tables not in the future, nil when there is none.
    public let newestAppData: Date?
    /// Reminders whose `scheduled_for` does not read (a number, text that is no time): in no
    /// window, counted apart.
    public let scheduledTimeUnreadable: Int
    /// When the last full count of the 30 days ended; refreshes re-read only the last day since.
    public let lastFullCount: Date

    public init(
        asOf: Date, reports: [ReminderRange: ReminderHealthReport], alerts: [ReminderAlert], newestAppData: Date?,
        scheduledTimeUnreadable: Int, lastFullCount: Date
    ) {
        self.asOf = asOf
        self.reports = reports
        self.alerts = alerts
        self.newestAppData = newestAppData
        self.scheduledTimeUnreadable = scheduledTimeUnreadable
        self.lastFullCount = lastFullCount
    }

    public func report(_ range: ReminderRange) -> ReminderHealthReport? { reports[range] }
}
