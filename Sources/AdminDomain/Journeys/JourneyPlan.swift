import Foundation
import GRDB

/// What evaluating and sending a journey needs of it, read once per evaluation.
public struct JourneyPlan: Sendable {
    public let id: Int64
    public let status: CampaignStatus?
    public let rules: JourneyRules
    public let segment: CampaignSegment
    public let holdoutPercent: Int
    /// Messages A to D: an entry's variant is drawn among them.
    public let variants: Int
    public let goal: CampaignGoal?
    public let goalDays: Int
    public let evaluatedUntil: Int64?
    public let passAfter: Int64?
    /// nil when the stored timing is not one this version knows: it sends as its rules say.
    public var timing: CampaignTiming? = .asScheduled

    /// nil when there is no such journey, or its rules or conditions do not read.
    static func load(_ id: Int64, in db: Database) throws -> JourneyPlan? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT c.status, c.segment, c.holdout_percent, c.goal, c.goal_days,
                           c.timing, c.timing_control_percent,
                           j.*,
                           1 + (SELECT COUNT(*) FROM panel_campaign_variants v WHERE v.campaign_id = c.id) AS variants
                    FROM panel_campaigns c JOIN panel_journeys j ON j.campaign_id = c.id
                    WHERE c.id = ? AND c.kind = ? AND c.deleted_at IS NULL
                    """, arguments: [id, CampaignKind.journey]),
            let rules = JourneyRecord.rules(from: row),
            let segment = (row["segment"] as String?).flatMap(CampaignSegment.fromStoredText)
        else { return nil }
        var plan = JourneyPlan(
            id: id, status: (try? row.decode(Stored<CampaignStatus>.self, forColumn: "status"))?.known, rules: rules,
            segment: segment,
            holdoutPercent: row["holdout_percent"] ?? 0, variants: row["variants"] ?? 1,
            goal: (row["goal"] as String?).flatMap(CampaignGoal.init(rawValue:)), goalDays: row["goal_days"] ?? 7,
            evaluatedUntil: row["evaluated_until"], passAfter: row["pass_after"])
        plan.timing = CampaignTiming(stored: row["timing"], controlPercent: row["timing_control_percent"])
        return plan
    }

    /// The active journeys' ids.
    static func active(in db: Database) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql:
                "SELECT id FROM panel_campaigns WHERE kind = ? AND status = ? "
                + "AND deleted_at IS NULL ORDER BY id",
            arguments: [CampaignKind.journey, CampaignStatus.sending])
    }

    /// The arm of one entry: drawn per entry (user and occurrence), the same every time it is
    /// drawn again, independent between journeys.
    func arm(for crossing: TriggerCrossing) -> CampaignDraw.Arm {
        CampaignDraw.arm(
            campaign: id, user: Self.entryKey(crossing), holdoutPercent: holdoutPercent, variants: variants,
            testPercent: nil)
    }

    /// Whether an entry goes at the journey's own time rather than the user's hour: drawn per
    /// entry, independent of the holdout and the variant.
    func isTimingControl(_ crossing: TriggerCrossing) -> Bool {
        TimingDraw.isControl(campaign: id, user: Self.entryKey(crossing), percent: timing?.controlPercent ?? 0)
    }

    static func entryKey(_ crossing: TriggerCrossing) -> Int64 {
        // FNV-1a over the occurrence, mixed with the user id.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in crossing.occurrence.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash ^ UInt64(bitPattern: crossing.userID) &* 0x9E37_79B9_7F4A_7C15)
    }
}
