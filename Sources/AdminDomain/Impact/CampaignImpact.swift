import Foundation

/// What a campaign changed, as of a moment: its recipients against its holdout, by variant
/// and platform, with conversions per day. Recipients are the users drawn to be sent to,
/// whatever became of their pushes (capped, failed, never opened): the holdout was drawn
/// from the same reachable users, so comparing the two as drawn is what measures the push.
public struct CampaignImpact: Sendable, Equatable, Codable {
    /// Users, those who reached the goal in the window, and those who opened this campaign's push.
    public struct Group: Sendable, Equatable, Codable {
        public var users = 0
        public var converted = 0
        public var opened = 0

        public init(users: Int = 0, converted: Int = 0, opened: Int = 0) {
            self.users = users
            self.converted = converted
            self.opened = opened
        }

        public var conversionRate: Double? { users == 0 ? nil : Double(converted) / Double(users) }
        public var openRate: Double? { users == 0 ? nil : Double(opened) / Double(users) }

        mutating func add(_ other: Group) {
            users += other.users
            converted += other.converted
            opened += other.opened
        }
    }

    public struct VariantRow: Sendable, Equatable, Codable {
        public let variant: MessageVariant
        public let group: Group
        public let lift: LiftInterval?
    }

    public struct PlatformRow: Sendable, Equatable, Codable {
        /// `ios`, `android`, or `both` for users reachable on both.
        public let platform: String
        public let recipients: Group
        public let holdout: Group
        public let lift: LiftInterval?
    }

    /// New converters in each day (or hour) of the window, 0 the first from the launch.
    public struct Bucket: Sendable, Equatable, Codable {
        public let index: Int
        public let recipients: Int
        public let holdout: Int
    }

    public var campaignID: Int64
    public var asOf: Date
    public var goal: CampaignGoal?
    public var windowStart: Date
    public var windowEnd: Date
    public var recipients = Group()
    public var holdout = Group()
    /// Recipients minus holdout, on the goal; nil without a goal or a holdout.
    public var lift: LiftInterval?
    /// A winner test whose rest has not been released: they were sent nothing, so the
    /// recipients above (the headline, the platforms and the chart) are the test share only.
    /// After the release, and without a winner test, everyone drawn to get it. nil in
    /// reports kept before the panel said so: read as false.
    public var restHeld: Bool?
    /// Each variant's own recipients (the test share, when there is one).
    public var variants: [VariantRow] = []
    /// Recipients outside the test share: they get the winner once chosen.
    public var rest: Group?
    public var platforms: [PlatformRow] = []
    public var days: [Bucket] = []
    /// The same by hour, for a window of a day or two.
    public var hours: [Bucket] = []
    /// Goal events whose time does not read as a time: counted for nobody.
    public var unreadableTimes = 0
    /// Sent at each user's usual hour: those users against the control share; nil otherwise.
    public var timing: TimingComparison?

    public init(campaignID: Int64, asOf: Date, goal: CampaignGoal?, windowStart: Date, windowEnd: Date) {
        self.campaignID = campaignID
        self.asOf = asOf
        self.goal = goal
        self.windowStart = windowStart
        self.windowEnd = windowEnd
    }

    /// Whether the window has closed as of the report.
    public var windowClosed: Bool { asOf > windowEnd }

    /// The winner test's rule: the best goal conversion rate, or the best open rate when there
    /// is no goal; a tie goes to the earlier letter. nil with no variant to choose from.
    public var ruleWinner: VariantRow? {
        variants.max { left, right in
            let l = (goal == nil ? left.group.openRate : left.group.conversionRate) ?? -1
            let r = (goal == nil ? right.group.openRate : right.group.conversionRate) ?? -1
            return l != r ? l < r : left.variant > right.variant
        }
    }
}
