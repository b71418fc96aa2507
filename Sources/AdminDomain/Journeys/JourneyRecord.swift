import Foundation
import GRDB

/// A journey as stored, for its pages: its campaign row (message, conditions, experiment,
/// running totals of deliveries) and its rules.
public struct JourneyRecord: Sendable, Equatable, Identifiable {
    public var campaign: CampaignRecord
    /// nil when the stored rules do not read (a newer panel wrote them).
    public var rules: JourneyRules?
    /// Users entered so far, held out or not (a running total).
    public var entered: Int
    /// The end of the last evaluation's window, seconds since 1970; nil before the first.
    public var evaluatedUntil: Int64?

    public var id: Int64 { campaign.id }
    public var status: JourneyStatus? { campaign.status.known.flatMap(JourneyStatus.init) }
    public var displayName: String { campaign.displayName }

    /// The stored rules, or nil when a column holds what this version does not know.
    static func rules(from row: Row) -> JourneyRules? {
        let days: Int? = row["trigger_days"]
        let trigger: JourneyTrigger? =
            switch (row["trigger"] as String?, days) {
            case ("inactive_days", let days?): .inactiveDays(days)
            case ("subscription_ending", let days?): .subscriptionEnding(days)
            case ("first_days", let days?): (row["fewer_items"] as Int?).map { .firstDays(days, fewerItems: $0) }
            default: nil
            }
        guard let trigger,
            let sendAt = JourneySendAt(stored: row["send_at"] ?? "", from: row["window_from"], to: row["window_to"])
        else { return nil }
        return JourneyRules(
            trigger: trigger, sendAt: sendAt, reentryDays: row["reentry_days"], dailyLimit: row["daily_limit"])
    }
}

extension JourneyTrigger {
    /// As `panel_journeys.trigger` stores it.
    public var stored: String {
        switch self {
        case .inactiveDays: "inactive_days"
        case .subscriptionEnding: "subscription_ending"
        case .firstDays: "first_days"
        }
    }

    public var days: Int {
        switch self {
        case .inactiveDays(let days), .subscriptionEnding(let days), .firstDays(let days, _): days
        }
    }

    public var fewerItems: Int? {
        if case .firstDays(_, let fewer) = self { fewer } else { nil }
    }

    /// In a sentence, for the pages and the command line.
    public var sentence: String {
        switch self {
        case .inactiveDays(let days): "has not opened the app for \(days) days"
        case .subscriptionEnding(let days):
            "premium subscription ends within \(days) day\(days == 1 ? "" : "s") and will not renew"
        case .firstDays(let days, let fewer):
            "signed up \(days) day\(days == 1 ? "" : "s") ago with fewer than \(fewer) item\(fewer == 1 ? "" : "s")"
        }
    }
}
