import Foundation

/// One window's reminder health: the figures, their splits, the chart and the criteria.
public struct ReminderHealthReport: Sendable, Equatable, Codable {
    /// How a user's devices split by platform, as they are now.
    public enum Platforms: String, CaseIterable, Sendable, Codable {
        case iosOnly = "ios_only"
        case androidOnly = "android_only"
        case both, none

        public var label: String {
            switch self {
            case .iosOnly: "iOS only"
            case .androidOnly: "Android only"
            case .both: "iOS and Android"
            case .none: "No device"
            }
        }
    }

    /// One point of the chart: an hour or a day.
    public struct Point: Sendable, Equatable, Codable {
        /// Its start, in seconds since 1970 (UTC).
        public let start: Int64
        /// The period is still going on: its figures are not final.
        public let partial: Bool
        public let figures: ReminderFigures

        public init(start: Int64, partial: Bool, figures: ReminderFigures) {
            self.start = start
            self.partial = partial
            self.figures = figures
        }
    }

    public let range: ReminderRange
    /// The window: `scheduled_for` in (from, until], in seconds since 1970 (UTC).
    public let from: Int64
    public let until: Int64
    public let figures: ReminderFigures
    /// By `item_kind`: 'food', 'document', and 'other' for anything else; a kind with nothing due is absent.
    public let byKind: [String: ReminderFigures]
    /// By `days_before`; nil for a value that is not a whole number.
    public let byDaysBefore: [Int?: ReminderFigures]
    public let byPlatforms: [Platforms: ReminderFigures]
    public let points: [Point]
    /// SC-002: users with a reminder due of whom one was sent on time and opened.
    public let sc002: ReminderCriterion
    /// SC-011: sent / (sent + failed), met above its target ("more than 95%").
    public let sc011: ReminderCriterion

    public init(
        range: ReminderRange, from: Int64, until: Int64, figures: ReminderFigures, byKind: [String: ReminderFigures],
        byDaysBefore: [Int?: ReminderFigures], byPlatforms: [Platforms: ReminderFigures], points: [Point],
        sc002: ReminderCriterion, sc011: ReminderCriterion
    ) {
        self.range = range
        self.from = from
        self.until = until
        self.figures = figures
        self.byKind = byKind
        self.byDaysBefore = byDaysBefore
        self.byPlatforms = byPlatforms
        self.points = points
        self.sc002 = sc002
        self.sc011 = sc011
    }
}
