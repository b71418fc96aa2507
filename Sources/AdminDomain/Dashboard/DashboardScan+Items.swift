import Foundation
import GRDB

extension DashboardScan {
    /// What the charts call the values past the kept ones (see `LabelCounts`).
    static let otherValues = "(other values)"

    func readItemsAndDocuments(into tally: DashboardTally) async throws {
        try await readFood(into: tally)
        try await readDocuments(into: tally)
    }

    private func readFood(into tally: DashboardTally) async throws {
        let items = tally.items
        let users = tally.users
        let window = tally.window
        let sources = ValueBytes<FoodSource>()
        items.foodHighWater = try await walk(
            """
            SELECT id, user_id, created_at, deleted_at, consumed_at, expiry_date, source, category, storage
            FROM food_items WHERE id > ? ORDER BY id LIMIT ?
            """, after: items.foodHighWater
        ) { row in
            // The three labels as text whatever their stored type (`castText`): ten million
            // rows, a cast each in the statement cost 1.6% of the count.
            let fate = ItemFate(row: row, created: 2, deleted: 3, expiry: 5, window: window, items: items)
            let source = sources.index(of: row.castText(6)) ?? FoodSource.allCases.count
            items.foodAddedBySource[source].add(day: fate.createdDay ?? window.first - 1, in: window)
            let consumed = !row.isNull(4)
            if !fate.deleted {
                items.liveFood += 1
                items.foodByCategory.add(row.castText(7))
                items.foodByStorage.add(row.castText(8))
                if !consumed {
                    if let expiry = fate.expiryDay {
                        items.openFoodByExpiry.add(day: expiry)
                    } else {
                        items.unreadableExpiry += 1
                    }
                }
            }
            if !consumed, let expiry = fate.expiryDay, !fate.deleted || (fate.deletedDay ?? Int.min) >= expiry {
                items.unconsumedFoodByExpiry.add(day: expiry, in: window)
            }
            fate.countPerUser(userID: row.integer(1), open: !fate.deleted && !consumed, users: users, items: items)
        }
    }

    private func readDocuments(into tally: DashboardTally) async throws {
        let items = tally.items
        let users = tally.users
        let window = tally.window
        items.documentHighWater = try await walk(
            """
            SELECT id, user_id, created_at, deleted_at, expiry_date, CAST(doc_type AS TEXT)
            FROM documents WHERE id > ? ORDER BY id LIMIT ?
            """, after: items.documentHighWater
        ) { row in
            let fate = ItemFate(row: row, created: 2, deleted: 3, expiry: 4, window: window, items: items)
            if !fate.deleted {
                items.liveDocuments += 1
                items.documentsByType.add(row.bytes(5))
                if let expiry = fate.expiryDay {
                    items.openDocumentsByExpiry.add(day: expiry)
                } else {
                    items.unreadableExpiry += 1
                }
            }
            fate.countPerUser(userID: row.integer(1), open: !fate.deleted, users: users, items: items)
        }
    }

    func readSubscriptions(into tally: DashboardTally) async throws {
        let subscriptions = tally.subscriptions
        let users = tally.users
        let window = tally.window
        let nowSeconds = nowSeconds
        subscriptions.highWater = try await walk(
            """
            SELECT id, user_id, CAST(plan_type AS TEXT), CAST(status AS TEXT), price_cents,
                   CAST(currency AS TEXT), started_at, current_period_end
            FROM subscriptions WHERE id > ? ORDER BY id LIMIT ?
            """, after: subscriptions.highWater
        ) { row in
            guard let start = row.seconds(6) else { return }
            let status = row.text(3)
            let end = row.seconds(7)
            subscriptions.started.add(day: TimestampBytes.day(ofSeconds: start), in: window)
            if status != SubscriptionStatus.refunded.rawValue, let end, end > start {
                subscriptions.inForceChange.add(day: TimestampBytes.day(ofSeconds: start), in: window)
                subscriptions.inForceChange.add(day: TimestampBytes.day(ofSeconds: end), in: window, -1)
            }
            if status == SubscriptionStatus.active.rawValue, let end, end > nowSeconds, let price = row.integer(4) {
                let monthly = row.text(2) == "yearly" ? Double(price) / 12 : Double(price)
                if let currency = row.text(5), Currency.isCode(currency) {
                    subscriptions.monthlyCents[currency, default: 0] += monthly
                } else {
                    subscriptions.unreadableCurrency += 1
                }
            }
            if let user = row.integer(1), let slot = users.slots.slot(of: user) {
                subscriptions.firstStart[slot] = min(subscriptions.firstStart[slot], start)
            }
        }
    }
}

enum Currency {
    /// ISO 4217's shape: three capital letters.
    static func isCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}

/// The days in one item's life, read once for both food and documents.
struct ItemFate {
    let createdSeconds: Int64?
    let createdDay: Int?
    let deleted: Bool
    let deletedDay: Int?
    let expiryDay: Int?

    /// Counts the item's creation and deletion: a row with no readable creation time counts
    /// as older than the window, a deletion never before the creation.
    init(row: RawRow, created: Int32, deleted deletedIndex: Int32, expiry: Int32, window: DayWindow, items: ItemTally) {
        createdSeconds = row.seconds(created)
        createdDay = createdSeconds.map(TimestampBytes.day(ofSeconds:))
        deleted = !row.isNull(deletedIndex)
        let createdOrOld = createdDay ?? window.first - 1
        items.created.add(day: createdOrOld, in: window)
        if deleted {
            let day = max(
                row.seconds(deletedIndex).map(TimestampBytes.day(ofSeconds:)) ?? window.first - 1, createdOrOld)
            deletedDay = day
            items.deleted.add(day: day, in: window)
        } else {
            deletedDay = nil
        }
        expiryDay = row.seconds(expiry).map(TimestampBytes.day(ofSeconds:))
    }

    func countPerUser(userID: Int64?, open: Bool, users: UserTally, items: ItemTally) {
        guard let userID, let slot = users.slots.slot(of: userID) else { return }
        if open { items.openItems[slot] += 1 }
        let signUp = users.signUp[slot]
        if let createdSeconds, signUp != Int64.min, createdSeconds >= signUp, createdSeconds - signUp < 7 * 86_400 {
            items.firstWeekItems[slot] += 1
        }
    }
}
