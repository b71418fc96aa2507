import Foundation

/// The targets and thresholds the alerts compare the last hour against.
public struct ReminderAlertOptions: Sendable, Equatable {
    /// SC-002's target for the on-time share.
    public var onTimeTarget = 0.90
    /// SC-011's target for the success rate.
    public var successTarget = 0.95
    /// Overdue reminders in the last hour above which an alert holds.
    public var overdueThreshold = 50
    /// A share is judged only over at least this many reminders: one late reminder of two is
    /// no incident.
    public var minimumDue = 20
    /// No new row in the app's tables for this long: the backend has stopped writing.
    public var appDataSilence: TimeInterval = 3_600

    public init() {}
}
