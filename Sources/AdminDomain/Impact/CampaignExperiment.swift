import Foundation

/// What a campaign's success is measured by: an activity event, within `goal_days` of the
/// launch. Stored in `panel_campaigns.goal`.
public enum CampaignGoal: String, VocabularyTerm, Codable {
    /// Any activity event: the app was used.
    case anyActivity = "any_activity"
    /// `item_added` or `document_added`.
    case itemAdded = "item_added"
    /// An `upgraded` event, or a subscription started.
    case upgraded

    /// The `activity_events.kind` values that count; nil: every kind.
    public var eventKinds: Set<String>? {
        switch self {
        case .anyActivity: nil
        case .itemAdded: ["item_added", "document_added"]
        case .upgraded: ["upgraded"]
        }
    }

    /// Whether a subscription's start counts too.
    public var countsSubscriptions: Bool { self == .upgraded }

    public var label: String {
        switch self {
        case .anyActivity: "used the app (any activity)"
        case .itemAdded: "added an item or a document"
        case .upgraded: "upgraded to premium"
        }
    }
}

/// One of up to four messages of a campaign: `a` is the campaign's own title and body.
/// Stored in `panel_deliveries.variant` and `panel_campaign_members.arm`.
public enum MessageVariant: String, VocabularyTerm, Comparable, Codable {
    case a, b, c, d

    public var letter: String { rawValue.uppercased() }
    public static func < (lhs: MessageVariant, rhs: MessageVariant) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A variant's message: its own text, or a template.
public struct VariantMessage: Sendable, Equatable {
    public var variant: MessageVariant
    public var title: String
    public var body: String
    public var template: String?

    public init(variant: MessageVariant, title: String, body: String, template: String? = nil) {
        self.variant = variant
        self.title = title
        self.body = body
        self.template = template
    }
}

/// How a campaign measures its effect: a holdout that gets nothing, a goal, variants of the
/// message, and whether the variants go to a test share first and the best goes to the rest.
public struct CampaignExperiment: Sendable, Equatable {
    /// Percent of the reachable users drawn into the holdout: never sent to.
    public var holdoutPercent: Int
    public var goal: CampaignGoal?
    /// The goal's window after the launch, in days.
    public var goalDays: Int
    /// Variants B to D (A is the campaign's own message).
    public var variants: [VariantMessage]
    /// Percent of the recipients who get the variants first; nil: every recipient at once.
    public var testPercent: Int?
    /// Hours after the launch when the best variant goes to the rest.
    public var winnerWaitHours: Int?

    public static let holdoutRange = 0...50
    public static let goalDaysRange = 1...14
    public static let testPercentRange = 5...50
    public static let winnerWaitRange = 1...72

    public init(
        holdoutPercent: Int = 0, goal: CampaignGoal? = nil, goalDays: Int = 3, variants: [VariantMessage] = [],
        testPercent: Int? = nil, winnerWaitHours: Int? = nil
    ) {
        self.holdoutPercent = holdoutPercent
        self.goal = goal
        self.goalDays = goalDays
        self.variants = variants
        self.testPercent = testPercent
        self.winnerWaitHours = winnerWaitHours
    }

    /// Why it cannot be stored, for callers other than the composer (which says the same
    /// in its own words): the draw gives letters by count, so a gap would send some
    /// recipients a variant that has no text.
    public var problem: String? {
        let letters = variants.map(\.variant)
        if letters != Array([MessageVariant.b, .c, .d].prefix(letters.count)) {
            return "its variants must be B, then C, then D, without a gap"
        }
        if !Self.holdoutRange.contains(holdoutPercent) { return "its holdout must be 0 to 50 percent" }
        if !Self.goalDaysRange.contains(goalDays) { return "its goal window must be 1 to 14 days" }
        if let testPercent, !Self.testPercentRange.contains(testPercent) {
            return "its test share must be 5 to 50 percent"
        }
        if testPercent != nil, variants.isEmpty { return "a test share needs at least two variants" }
        if let winnerWaitHours, !Self.winnerWaitRange.contains(winnerWaitHours) {
            return "its wait before the winner must be 1 to 72 hours"
        }
        return nil
    }

    /// A, then B, C, D as composed.
    public var letters: [MessageVariant] { [.a] + variants.map(\.variant) }
    public var hasWinnerTest: Bool { testPercent != nil && variants.count >= 1 }
}
