import Foundation
import GRDB

/// Who a campaign goes to: typed conditions on the user, ANDed; nil means any. Whatever the
/// segment, some devices never get a campaign push (`reachableDeviceConditions`).
public struct CampaignSegment: Sendable, Equatable, Codable {
    public var bucket: ActivityBucket?
    public var plan: Plan?
    public var platform: Platform?

    public init(bucket: ActivityBucket? = nil, plan: Plan? = nil, platform: Platform? = nil) {
        self.bucket = bucket
        self.plan = plan
        self.platform = platform
    }

    /// Conditions on `users u` and `devices d`.
    func conditions(now: Date) -> [SQLCondition] {
        var conditions: [SQLCondition] = []
        if let bucket { conditions.append(bucket.condition(now: now)) }
        if let plan { conditions.append(SQLCondition("u.plan = :plan", ["plan": plan])) }
        if let platform { conditions.append(SQLCondition("d.platform = :platform", ["platform": platform])) }
        return conditions
    }

    /// Suspended and deleted users, push or marketing turned off, no permission or token,
    /// a provider the panel cannot send to, a token a provider called dead.
    static let reachableDeviceConditions: [SQLCondition] = [
        SQLCondition("u.status = 'active'"),
        SQLCondition("(s.user_id IS NULL OR (CAST(s.push_enabled AS INTEGER) <> 0 AND CAST(s.marketing_opt_in AS INTEGER) <> 0))"),
        SQLCondition("d.push_permission = 'granted' AND d.push_token IS NOT NULL AND d.push_token <> ''"),
        SQLCondition("d.push_provider IN ('fcm', 'apns')"),
        SQLCondition("NOT EXISTS (SELECT 1 FROM panel_dead_tokens t WHERE t.token_sha256 = panel_sha256(d.push_token))"),
    ]

    var storedText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

extension ActivityBucket: Codable {}
extension Plan: Codable {}
extension Platform: Codable {}
