/// What a journey has beyond a campaign's message, audience and experiment: its trigger,
/// when it sends, re-entry and a daily ceiling.
public struct JourneyRules: Sendable, Equatable {
    public var trigger: JourneyTrigger
    public var sendAt: JourneySendAt
    /// nil: a user enters once, ever; else a new occurrence enters after this many days.
    public var reentryDays: Int?
    /// nil: no ceiling; else at most this many users enter a day (UTC), held out or not, so
    /// that the holdout stays comparable. The rest are recorded `limited`.
    public var dailyLimit: Int?

    public static let reentryRange = 1...365
    public static let dailyLimitRange = 1...1_000_000

    public init(
        trigger: JourneyTrigger, sendAt: JourneySendAt = .dailyTime, reentryDays: Int? = nil, dailyLimit: Int? = nil
    ) {
        self.trigger = trigger
        self.sendAt = sendAt
        self.reentryDays = reentryDays
        self.dailyLimit = dailyLimit
    }

    public var refusal: String? {
        if let problem = trigger.refusal ?? sendAt.refusal { return problem }
        if let days = reentryDays, !Self.reentryRange.contains(days) {
            return "Re-entry must be empty (never) or from 1 to 365 days: “\(days)” is not."
        }
        if let limit = dailyLimit, !Self.dailyLimitRange.contains(limit) {
            return "The daily limit must be empty (none) or from 1 to 1,000,000: “\(limit)” is not."
        }
        return nil
    }
}

/// A journey as composed: the campaign's content, audience and experiment (its schedule and
/// winner test unused), and its rules.
public struct JourneyDraft: Sendable, Equatable {
    public var campaign: CampaignDraft
    public var rules: JourneyRules

    public init(campaign: CampaignDraft, rules: JourneyRules) {
        self.campaign = campaign
        self.rules = rules
    }
}
