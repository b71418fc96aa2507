import GRDB

/// What a campaign's or journey's pushes cost: of its recipients, and of its holdout or the
/// global control group's members in its audience, the share who turned campaign pushes off,
/// turned push notifications off, or lost every permitted device within 72 hours
/// (`ConsentReadings`); the recipients' share minus the baseline's with Newcombe's interval.
public struct PushCost: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        public var users = 0
        public var marketingOff = 0
        public var pushOff = 0
        public var permissionOff = 0
        /// Accounts suspended or deleted meanwhile: left out of the shares.
        public var gone = 0

        public init(users: Int = 0, marketingOff: Int = 0, pushOff: Int = 0, permissionOff: Int = 0, gone: Int = 0) {
            self.users = users
            self.marketingOff = marketingOff
            self.pushOff = pushOff
            self.permissionOff = permissionOff
            self.gone = gone
        }

        /// The users each share is of.
        public var counted: Int { max(0, users - gone) }

        public func turnedOff(_ kind: Kind) -> Int {
            switch kind {
            case .marketing: marketingOff
            case .push: pushOff
            case .permission: permissionOff
            }
        }
    }

    public enum Kind: String, CaseIterable, Sendable {
        case marketing, push, permission

        public var label: String {
            switch self {
            case .marketing: "turned campaign pushes off"
            case .push: "turned push notifications off"
            case .permission: "revoked the permission on every device"
            }
        }
    }

    public enum Baseline: String, Sendable {
        case holdout
        case control

        public var label: String {
            switch self {
            case .holdout: "its holdout"
            case .control: "the global control group"
            }
        }
    }

    public var recipients = Group()
    public var holdout = Group()
    public var control = Group()

    public init(recipients: Group = Group(), holdout: Group = Group(), control: Group = Group()) {
        self.recipients = recipients
        self.holdout = holdout
        self.control = control
    }

    /// The holdout when it has members read, else the global control group's, else none.
    public var baseline: (kind: Baseline, group: Group)? {
        if holdout.counted > 0 { return (.holdout, holdout) }
        if control.counted > 0 { return (.control, control) }
        return nil
    }

    public func difference(_ kind: Kind) -> LiftInterval? {
        guard let baseline else { return nil }
        return LiftInterval(
            converted: recipients.turnedOff(kind), of: recipients.counted,
            against: baseline.group.turnedOff(kind), of: baseline.group.counted)
    }

    /// Recipients turned something off more than the baseline beyond chance: the interval of
    /// at least one kind lies above zero.
    public var exceedsBaseline: Bool { Kind.allCases.contains { difference($0).map { $0.lower > 0 } ?? false } }

    /// Nothing read yet.
    public var isEmpty: Bool { recipients.users == 0 && holdout.users == 0 && control.users == 0 }

    /// The costs of these campaigns and journeys, by id (none read yet: absent).
    public static func load(_ campaigns: [Int64], in db: Database) throws -> [Int64: PushCost] {
        guard !campaigns.isEmpty else { return [:] }
        var costs: [Int64: PushCost] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT campaign_id, grp, users, marketing_off, push_off, permission_off, gone FROM panel_consent_costs
                WHERE campaign_id IN (SELECT value FROM json_each(?))
                """, arguments: [ConsentReadings.json(campaigns)])
        {
            let group = Group(
                users: row["users"], marketingOff: row["marketing_off"], pushOff: row["push_off"],
                permissionOff: row["permission_off"], gone: row["gone"])
            let id: Int64 = row["campaign_id"]
            var cost = costs[id] ?? PushCost()
            switch row["grp"] as String {
            case "recipients": cost.recipients = group
            case "holdout": cost.holdout = group
            default: cost.control = group
            }
            costs[id] = cost
        }
        return costs
    }
}

extension Campaigns {
    /// The costs of a page of campaigns: three small rows each at most.
    public func costs(_ ids: [Int64]) async throws -> [Int64: PushCost] {
        try await database.read { db in try PushCost.load(ids, in: db) }
    }
}
