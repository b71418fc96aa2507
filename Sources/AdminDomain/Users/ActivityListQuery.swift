import Foundation
import GRDB

/// Users by how recently they used the app, from `users.last_active_at` (UTC):
/// active since 7 days ago (the dashboard's definition), idle from 30 to 7 days ago,
/// inactive before that, never active when it is NULL. A last activity a day or more
/// ahead of now, or text that sorts after every time ("yesterday", "2026-13-45"), is in
/// no bucket: a clock that far off says nothing about when the user was last seen.
public enum ActivityBucket: String, CaseIterable, Sendable {
    case active, idle, inactive, never

    public var label: String {
        switch self {
        case .active: "Active (last 7 days)"
        case .idle: "Idle (8 to 29 days)"
        case .inactive: "Inactive (30+ days)"
        case .never: "Never active"
        }
    }

    /// The bucket as a condition on `last_active_at`, a range of its index.
    func condition(now: Date) -> SQLCondition {
        let week = SQLiteTime.string(now.addingTimeInterval(-7 * 86_400))
        let month = SQLiteTime.string(now.addingTimeInterval(-30 * 86_400))
        return switch self {
        case .active:
            SQLCondition(
                "u.last_active_at >= :week AND u.last_active_at < :ahead",
                ["week": week, "ahead": Self.aheadFrom(now: now)])
        case .idle:
            SQLCondition("u.last_active_at >= :month AND u.last_active_at < :week", ["week": week, "month": month])
        case .inactive: SQLCondition("u.last_active_at < :month", ["month": month])
        case .never: SQLCondition("u.last_active_at IS NULL")
        }
    }

    /// Last activities from here on are in no bucket: a day ahead of now.
    public static func aheadFrom(now: Date) -> String {
        SQLiteTime.string(now.addingTimeInterval(86_400))
    }
}

/// The order of an activity list.
public enum ActivitySort: String, CaseIterable, Sendable {
    case lastActive = "last_active"
    case signUp = "sign_up"
}

/// An activity list: which users, in which order.
public struct ActivityListQuery: Sendable, Equatable {
    public var filter: UserFilter
    public var sort: ActivitySort
    /// Oldest first: the same index walked upwards.
    public var ascending: Bool

    public init(_ filter: UserFilter, sort: ActivitySort = .lastActive, ascending: Bool = false) {
        self.filter = filter
        self.sort = sort
        self.ascending = ascending
    }

    /// The never-active have no last activity to order by: they come newest sign-up first.
    public var ordersBySignUp: Bool {
        sort == .signUp || filter.bucket == .never
    }
}

/// The list's size: exact, or estimated from a sample when the filters need each row read.
public struct ListSize: Sendable, Equatable {
    public let value: Int
    public let isEstimate: Bool
    /// An estimate's half-width at 95% confidence: the list holds `value ± margin` users.
    public var margin: Int?
    /// A count the background refresher made (the dashboard's): when.
    public var countedAt: Date?
    /// Only a floor is known: the rows seen so far, more than the estimate allowed for.
    public var isAtLeast = false

    public init(value: Int, isEstimate: Bool, margin: Int? = nil, countedAt: Date? = nil, isAtLeast: Bool = false) {
        self.value = value
        self.isEstimate = isEstimate
        self.margin = margin
        self.countedAt = countedAt
        self.isAtLeast = isAtLeast
    }
}

/// A page of an activity list, keyset-paged on the sort column and id.
public struct ActivityPage: Sendable {
    public let users: [UserSummary]
    /// Where the next page starts, if the list goes on.
    public let next: ActivityCursor?
    /// True when the page looked at its whole budget of candidates and found fewer than a
    /// page: there may be more further on.
    public let stoppedOnBudget: Bool
    /// Candidates this page read from the index, for saying how far a short page looked.
    public var candidatesRead = 0
    /// Where the previous page ends (it lists the users before this one), when the page is not the first.
    public var previous: ActivityCursor? = nil
}

public struct ActivityCursor: Sendable, Equatable {
    /// The sort column's value at the last row looked at (NULL for the never-active bucket's last-active sort).
    public let key: String?
    public let id: Int64

    public init(key: String?, id: Int64) {
        self.key = key
        self.id = id
    }
}
