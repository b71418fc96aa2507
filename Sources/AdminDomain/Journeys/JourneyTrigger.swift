import Foundation

/// What makes a user enter a journey: a moment their rows cross, found from an index range of
/// the app's tables since the previous evaluation (docs/journeys.md, issue 34).
public enum JourneyTrigger: Sendable, Equatable {
    /// The user's `last_active_at` crossed now − `days` (7–180): they stopped opening the app.
    case inactiveDays(Int)
    /// Signed up `days` ago (1–14) with fewer than `fewerItems` (1–50) food items and
    /// documents, not deleted.
    case firstDays(Int, fewerItems: Int)
    /// A subscription in force ends within `days` (1–14) and will not renew, for a user whose
    /// plan is premium. Found by a rolling pass, not a crossing: see `SubscriptionPass`.
    case subscriptionEnding(Int)

    public static let inactiveDaysRange = 7...180
    public static let firstDaysRange = 1...14
    public static let fewerItemsRange = 1...50
    public static let subscriptionDaysRange = 1...14

    /// The sentence refusing values out of range, or nil when they are in range.
    public var refusal: String? {
        switch self {
        case .inactiveDays(let days) where !Self.inactiveDaysRange.contains(days):
            "Inactive days must be from 7 to 180: “\(days)” is not."
        case .firstDays(let days, _) where !Self.firstDaysRange.contains(days):
            "First days must be from 1 to 14: “\(days)” is not."
        case .firstDays(_, let fewer) where !Self.fewerItemsRange.contains(fewer):
            "Fewer items must be from 1 to 50: “\(fewer)” is not."
        case .subscriptionEnding(let days) where !Self.subscriptionDaysRange.contains(days):
            "Days before a subscription ends must be from 1 to 14: “\(days)” is not."
        default: nil
        }
    }

    /// How far behind now the crossing time lies.
    var lag: Int64 {
        switch self {
        case .inactiveDays(let days), .firstDays(let days, _), .subscriptionEnding(let days): Int64(days) * 86_400
        }
    }
}
