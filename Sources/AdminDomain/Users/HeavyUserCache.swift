import Foundation

/// What a user with thousands of items costs per look, kept for a minute: their status
/// counts and the order of their item list. A profile of the 20,000-item user read all its
/// rows twice per request (counts, then the sorted page), 78 ms alone and a p99 of 697 ms
/// at four connections; with this, a page of it reads 51 rows. Only users past
/// `threshold` items are kept, at most `capacity` lists at once, so memory stays small and a
/// typical profile is always read fresh. What is kept is at most `lifetime` old, and a new
/// day in the user's calendar starts over.
public actor HeavyUserCache {
    public static let threshold = 1_000
    static let lifetime: TimeInterval = 60
    static let capacity = 64

    struct OrderKey: Hashable {
        let userID: Int64
        let filter: UserItems.Filter
        let today: Int64
    }

    /// A user's counts, with the day in their calendar they were counted for.
    struct Counts: Sendable {
        let today: Int64
        let food: UserProfile.StatusCounts
        let documents: UserProfile.StatusCounts
    }

    private var orders = Kept<OrderKey, [UserItems.Cursor]>()
    private var counts = Kept<Int64, Counts>()

    public init() {}

    func order(_ key: OrderKey, now: Date) -> [UserItems.Cursor]? {
        orders.value(key, now: now)
    }

    func keep(_ order: [UserItems.Cursor], for key: OrderKey, now: Date) {
        guard order.count >= Self.threshold else { return }
        orders.keep(order, for: key, now: now)
    }

    func counts(userID: Int64, now: Date) -> Counts? {
        counts.value(userID, now: now)
    }

    func keep(_ kept: Counts, userID: Int64, now: Date) {
        guard kept.food.total + kept.documents.total >= Self.threshold else { return }
        counts.keep(kept, for: userID, now: now)
    }
}

/// Values kept up to `HeavyUserCache.lifetime`, at most `HeavyUserCache.capacity` of them:
/// when full, what has run out goes first, then the oldest.
struct Kept<Key: Hashable, Value> {
    private var entries: [Key: (at: Date, value: Value)] = [:]

    func value(_ key: Key, now: Date) -> Value? {
        guard let entry = entries[key], now.timeIntervalSince(entry.at) < HeavyUserCache.lifetime else { return nil }
        return entry.value
    }

    mutating func keep(_ value: Value, for key: Key, now: Date) {
        if entries.count >= HeavyUserCache.capacity {
            entries = entries.filter { now.timeIntervalSince($0.value.at) < HeavyUserCache.lifetime }
        }
        if entries.count >= HeavyUserCache.capacity, let oldest = entries.min(by: { $0.value.at < $1.value.at })?.key {
            entries[oldest] = nil
        }
        entries[key] = (now, value)
    }
}
