import Foundation

/// What the dashboard has counted so far, kept between refreshes so that an incremental
/// refresh reads only the rows added since (each part remembers the highest rowid it read).
/// A full count builds a new tally; figures are derived from it in `DashboardSnapshot`.
///
/// Parts are classes because a scan fills them across many short read transactions, one
/// after the other: each part is owned by one task of one refresh at a time (the refresher
/// runs one refresh at once), which is what makes the unchecked `Sendable` sound. For the
/// same reason the per-row parts' fields skip Swift's run-time exclusivity checks: a check on
/// each of a row's dozen field accesses was 4% of a full count's CPU, and no two accesses to
/// one part ever overlap.
final class DashboardTally: @unchecked Sendable {
    let window: DayWindow
    let users: UserTally
    let events: EventTally
    let items: ItemTally
    let subscriptions: SubscriptionTally
    var households = HouseholdTally()
    var devices = DeviceTally()
    var reminders = ReminderTally()
    var pushes = PushTally()
    /// When the full count began, and when the latest refresh (full or not) began.
    let countedAt: Date
    var updatedAt: Date

    init(window: DayWindow, countedAt: Date) {
        self.window = window
        self.countedAt = countedAt
        updatedAt = countedAt
        users = UserTally()
        events = EventTally()
        items = ItemTally(window: window)
        subscriptions = SubscriptionTally()
    }
}

/// Users not deleted: totals, sign-ups per day, and per-user columns the other parts fill.
final class UserTally: @unchecked Sendable {
    @exclusivity(unchecked) var slots = UserSlots()
    /// The users' ids in slot order, which is id order: the ranges the events are read by.
    @exclusivity(unchecked) var ids: [Int64] = []
    @exclusivity(unchecked) var signUp: [Int64] = []
    /// Int64.min: never active (or unreadable).
    @exclusivity(unchecked) var lastActive: [Int64] = []
    @exclusivity(unchecked) var premium: [Bool] = []
    @exclusivity(unchecked) var total = 0, suspended = 0, premiumCount = 0, unreadableSignUps = 0
    @exclusivity(unchecked) var signUps = DayCounts()
    @exclusivity(unchecked) var byActivity: [ActivityBucket: Int] = [:]
    @exclusivity(unchecked) var householdMembers: [Int64: Int32] = [:]
    @exclusivity(unchecked) var highWater: Int64 = 0

}

/// Which days each user was active, one bit a day of the window, seven words a user.
final class EventTally: @unchecked Sendable {
    @exclusivity(unchecked) var activeDays: [UInt64] = []
    @exclusivity(unchecked) var highWater: Int64 = 0
    /// Who was active on the days the earlier spans end on, up to their time of day.
    @exclusivity(unchecked) var activeBeforeCut = ActiveBeforeCut(at: Int64.min)

    func grow(toUsers count: Int) {
        let words = count * DayWindow.words
        if activeDays.count < words { activeDays.append(contentsOf: repeatElement(0, count: words - activeDays.count)) }
    }

    func isActive(slot: Int, dayIndex: Int) -> Bool {
        activeDays[slot * DayWindow.words + dayIndex >> 6] & (1 << UInt64(dayIndex & 63)) != 0
    }
}

/// The users active on a few days up to a time of day (where the spans compared end), as
/// bits by slot, and each day's cut. A refresh moves the cuts on and reads only the events
/// since the last; events that arrive late (by id) with a time before a cut are added as
/// they are read. `at`: the moment of the refresh that set the cuts.
struct ActiveBeforeCut: Sendable {
    var at: Int64
    var days: [Int: [UInt64]] = [:]
    var cuts: [Int: Int64] = [:]

    init(at: Int64) {
        self.at = at
    }

    /// Cuts set, no event read yet.
    init(at: Int64, cuts: [Int: Int64]) {
        self.at = at
        self.cuts = cuts
        for day in cuts.keys { days[day] = [] }
    }

    /// From the start of the earliest cut day to the latest cut: what an event outside of
    /// cannot be kept, checked before the day's lookup.
    var span: ClosedRange<Int64>? {
        guard let first = cuts.keys.min(), let last = cuts.values.max() else { return nil }
        return PeriodComparison.start(of: first)...last
    }

    /// nil when that day was not read for this moment.
    func contains(day: Int, slot: Int) -> Bool? {
        guard let bits = days[day] else { return nil }
        return slot >> 6 < bits.count && bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0
    }

    /// An event of `slot` at `seconds`, kept when its day is one of the cut days and it is
    /// not after that day's cut.
    mutating func add(slot: Int, seconds: Int64) {
        let day = TimestampBytes.day(ofSeconds: seconds)
        guard let cut = cuts[day], seconds <= cut else { return }
        let word = slot >> 6
        if word >= days[day, default: []].count {
            days[day, default: []].append(contentsOf: repeatElement(0, count: word + 1 - days[day, default: []].count))
        }
        days[day]![word] |= 1 << UInt64(slot & 63)
    }
}

/// Food items and documents.
final class ItemTally: @unchecked Sendable {
    @exclusivity(unchecked) var liveFood = 0, liveDocuments = 0
    /// Every row by the day it was created, and by the day it was deleted (never before it
    /// was created): the items tracked on any day of the window.
    @exclusivity(unchecked) var created = DayCounts(), deleted = DayCounts()
    /// By `FoodSource`, in its order, then any other value.
    @exclusivity(unchecked) var foodAddedBySource = [DayCounts](
        repeating: DayCounts(), count: FoodSource.allCases.count + 1)
    /// Items neither deleted nor consumed, by expiry day.
    @exclusivity(unchecked) var openFoodByExpiry: ExpiryCounts, openDocumentsByExpiry: ExpiryCounts
    @exclusivity(unchecked) var unreadableExpiry = 0
    /// Food not consumed and not deleted before its expiry day, by expiry day.
    @exclusivity(unchecked) var unconsumedFoodByExpiry = DayCounts()
    @exclusivity(unchecked) var foodByCategory = LabelCounts(), foodByStorage = LabelCounts(),
        documentsByType = LabelCounts()
    /// Per user: items neither deleted nor consumed, and items created in the first 7 days.
    @exclusivity(unchecked) var openItems: [Int32] = [], firstWeekItems: [Int32] = []
    @exclusivity(unchecked) var foodHighWater: Int64 = 0, documentHighWater: Int64 = 0

    init(window: DayWindow) {
        openFoodByExpiry = ExpiryCounts(window: window)
        openDocumentsByExpiry = ExpiryCounts(window: window)
    }

    func grow(toUsers count: Int) {
        if openItems.count < count {
            openItems.append(contentsOf: repeatElement(0, count: count - openItems.count))
            firstWeekItems.append(contentsOf: repeatElement(0, count: count - firstWeekItems.count))
        }
    }
}

/// Subscriptions: the premium users and upgrades per week, revenue, first purchase a user.
final class SubscriptionTally: @unchecked Sendable {
    /// +1 on the day a subscription starts, -1 on the day its period ends (refunds left out).
    @exclusivity(unchecked) var inForceChange = DayCounts()
    @exclusivity(unchecked) var started = DayCounts()
    /// Cents a month by currency code, from active subscriptions whose period has not ended.
    @exclusivity(unchecked) var monthlyCents: [String: Double] = [:]
    @exclusivity(unchecked) var unreadableCurrency = 0
    /// Per user: the start of their first subscription, Int64.max for none.
    @exclusivity(unchecked) var firstStart: [Int64] = []
    @exclusivity(unchecked) var highWater: Int64 = 0

    func grow(toUsers count: Int) {
        if firstStart.count < count {
            firstStart.append(contentsOf: repeatElement(Int64.max, count: count - firstStart.count))
        }
    }
}

struct HouseholdTally: Sendable {
    var created = DayCounts()
    var total = 0
}

struct DeviceTally: Sendable {
    /// platform → permission → devices.
    var counts: [String: [String: Int]] = [:]
}

/// Reminders the backend sent or failed to send, by the day they were due.
struct ReminderTally: Sendable {
    var sent = DayCounts(), failed = DayCounts()
}

/// Campaign pushes per day: accepted from the panel's deliveries, received and opened from
/// the devices' receipts (distinct deliveries a day).
struct PushTally: Sendable {
    var accepted = DayCounts(), received = DayCounts(), opened = DayCounts()
}
