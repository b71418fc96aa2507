import Foundation
import GRDB

/// Which users: typed conditions that the activity lists apply today and that campaign
/// segments extend. Every condition is ANDed; nil means any.
public struct UserFilter: Sendable, Equatable {
    public var bucket: ActivityBucket
    public var plan: Plan?
    /// nil: every account that is not deleted, as the dashboard counts users. Deleted
    /// accounts appear only when asked for (`.deleted`).
    public var status: AccountStatus?
    /// Users with at least one device on this platform.
    public var platform: Platform?
    /// Sign-up days in UTC, both ends included.
    public var signedUp: DayRange

    public init(
        bucket: ActivityBucket = .active, plan: Plan? = nil, status: AccountStatus? = nil, platform: Platform? = nil,
        signedUp: DayRange = DayRange()
    ) {
        self.bucket = bucket
        self.plan = plan
        self.status = status
        self.platform = platform
        self.signedUp = signedUp
    }

    /// The sign-up range as conditions on `users u`, with their arguments.
    var signUpConditions: [SQLCondition] {
        var conditions: [SQLCondition] = []
        if let from = signedUp.from { conditions.append(SQLCondition("u.created_at >= :from", ["from": from])) }
        if let to = signedUp.to { conditions.append(SQLCondition("u.created_at < date(:to, '+1 day')", ["to": to])) }
        return conditions
    }

    /// Only the activity bucket: the list the dashboard's numbers count.
    public var isBucketOnly: Bool {
        plan == nil && status == nil && platform == nil && signedUp.isOpen
    }

    /// The conditions on the user's own row and devices, beside the bucket and sign-up range.
    var attributeConditions: [SQLCondition] {
        var conditions: [SQLCondition] = []
        if let plan { conditions.append(SQLCondition("u.plan = :plan", ["plan": plan])) }
        if let status {
            conditions.append(SQLCondition("u.status = :status", ["status": status]))
        } else {
            conditions.append(SQLCondition("u.status <> :deleted", ["deleted": AccountStatus.deleted]))
        }
        if let platform { conditions.append(.hasDevice(on: platform)) }
        return conditions
    }
}
