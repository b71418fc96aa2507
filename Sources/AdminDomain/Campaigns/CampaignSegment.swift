import Foundation
import GRDB

/// Who a campaign goes to: typed conditions on the user, ANDed; nil or false means any.
/// Whatever the segment, some devices never get a campaign push: `Audience` counts each
/// reason and leaves them out.
public struct CampaignSegment: Sendable, Equatable, Codable {
    public var bucket: ActivityBucket?
    public var plan: Plan?
    /// Free users with at least `nearLimitItems` live items (the free limit is 50).
    public var nearItemLimit: Bool
    /// Users with food, neither eaten nor deleted, expiring from today to N days ahead.
    public var foodExpiringWithinDays: Int?
    /// Users with documents (of `documentType` if set) expiring from today to N days ahead.
    public var documentsExpiringWithinDays: Int?
    public var documentType: DocumentType?
    /// Only devices on this platform.
    public var platform: Platform?
    public var signedUpFrom: Day?
    public var signedUpTo: Day?

    public static let freeItemLimit = 50
    public static let nearLimitItems = 40

    public init(
        bucket: ActivityBucket? = nil, plan: Plan? = nil, nearItemLimit: Bool = false,
        foodExpiringWithinDays: Int? = nil, documentsExpiringWithinDays: Int? = nil, documentType: DocumentType? = nil,
        platform: Platform? = nil, signedUpFrom: Day? = nil, signedUpTo: Day? = nil
    ) {
        self.bucket = bucket
        self.plan = plan
        self.nearItemLimit = nearItemLimit
        self.foodExpiringWithinDays = foodExpiringWithinDays
        self.documentsExpiringWithinDays = documentsExpiringWithinDays
        self.documentType = documentType
        self.platform = platform
        self.signedUpFrom = signedUpFrom
        self.signedUpTo = signedUpTo
    }

    /// Conditions on `users u` (expiry windows start at today's UTC date).
    func userConditions(now: Date) -> [SQLCondition] {
        var conditions: [SQLCondition] = []
        let today = SQLiteTime.dayString(daysSinceEpoch: Int64((now.timeIntervalSince1970 / 86_400).rounded(.down)))
        if let bucket { conditions.append(bucket.condition(now: now)) }
        if let plan { conditions.append(SQLCondition("u.plan = :plan", ["plan": plan])) }
        if nearItemLimit {
            conditions.append(
                SQLCondition(
                    """
                    u.plan = 'free' AND (SELECT COUNT(*) FROM food_items f INDEXED BY food_items_user
                                         WHERE f.user_id = u.id AND f.deleted_at IS NULL AND f.consumed_at IS NULL)
                                      + (SELECT COUNT(*) FROM documents o INDEXED BY documents_user
                                         WHERE o.user_id = u.id AND o.deleted_at IS NULL) >= :nearLimit
                    """, ["nearLimit": Self.nearLimitItems]))
        }
        if let days = foodExpiringWithinDays {
            conditions.append(
                SQLCondition(
                    """
                    EXISTS (SELECT 1 FROM food_items f INDEXED BY food_items_user
                            WHERE f.user_id = u.id
                            AND f.deleted_at IS NULL
                            AND f.consumed_at IS NULL
                            AND f.expiry_date BETWEEN :today AND date(:today, '+' || :foodDays || ' days'))
                    """, ["today": today, "foodDays": days]))
        }
        if let days = documentsExpiringWithinDays {
            conditions.append(
                SQLCondition(
                    """
                    EXISTS (SELECT 1 FROM documents o INDEXED BY documents_user
                            WHERE o.user_id = u.id
                            AND o.deleted_at IS NULL
                            AND o.expiry_date BETWEEN :today AND date(:today, '+' || :documentDays || ' days')
                            AND (:documentType IS NULL OR o.doc_type = :documentType))
                    """, ["today": today, "documentDays": days, "documentType": documentType?.rawValue]))
        }
        if let platform { conditions.append(.hasDevice(on: platform)) }
        if let signedUpFrom { conditions.append(SQLCondition("u.created_at >= :from", ["from": signedUpFrom])) }
        if let signedUpTo { conditions.append(SQLCondition("u.created_at < date(:to, '+1 day')", ["to": signedUpTo])) }
        return conditions
    }

    public var storedText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func fromStoredText(_ text: String) -> CampaignSegment? {
        try? JSONDecoder().decode(CampaignSegment.self, from: Data(text.utf8))
    }
}

extension ActivityBucket: Codable {}
extension Plan: Codable {}
extension Platform: Codable {}

extension Day: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a day"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
