import Foundation
import GRDB

/// Reads the app's tables into a tally: all of them (a full count) or the rows added since
/// the tally's last read (an incremental refresh). Every read is one short transaction of
/// at most `rowsPerRead` rows; the big tables are walked by key, never counted whole.
struct DashboardScan: Sendable {
    let database: PanelDatabase
    let now: Date
    var rowsPerRead = 50_000
    /// The most receipts the full count keeps in memory (`KeyedReceipts`), 24 bytes each.
    var receiptsByKey = KeyedReceipts.limit
    /// Nobody waits for this count: its reads run at the lowest priority, behind requests.
    var atLowPriority = false

    /// Each read at the lowest priority or not; none once the count was cancelled (a run
    /// someone waits for replaced it).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return atLowPriority ? try await database.readAtLowPriority(body) : try await database.read(body)
    }

    var nowSeconds: Int64 { Int64(now.timeIntervalSince1970.rounded(.down)) }
    var today: Int { TimestampBytes.day(ofSeconds: nowSeconds) }

    /// Two readers at a time, on the two cores: the users beside the tables that need no
    /// user (households, devices, reminders, campaign pushes), then the events (and the
    /// periods' cuts along their time index) beside the items, documents and subscriptions
    /// (which key their per-user columns by the users). The cuts ran alone at the end, 0.9 s
    /// of a 9.4 s count at a million users; beside the items, which end last, they cost none.
    func full() async throws -> DashboardTally {
        let tally = DashboardTally(window: .ending(near: today), countedAt: now)
        let eventsHighWater = try await read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM activity_events") ?? 0
        }
        async let small: Void = readTablesWithoutUsers(into: tally)
        try await readUsers(into: tally)
        async let events: Void = readEventsAndCuts(into: tally, highWater: eventsHighWater)
        try await readItemsAndDocuments(into: tally)
        try await readSubscriptions(into: tally)
        try await events
        try await small
        return tally
    }

    /// The events by user, then the cuts: both write only the events' tally. The walk by user
    /// sees every event of the cut days and keeps those up to each cut as it goes, so the
    /// cuts' own walk finds them read and has nothing left to read (along the time index it
    /// looked each event up in the table: 2.1 GB of pages read for 126,000 events a day).
    private func readEventsAndCuts(into tally: DashboardTally, highWater: Int64) async throws {
        let comparison = PeriodComparison(nowSeconds: nowSeconds, today: today)
        tally.events.activeBeforeCut = ActiveBeforeCut(at: nowSeconds, cuts: comparison.cuts)
        try await readEventsByUser(into: tally, highWater: highWater)
        try await readActiveBeforeCut(into: tally)
    }

    private func readTablesWithoutUsers(into tally: DashboardTally) async throws {
        tally.households = try await readHouseholds(window: tally.window)
        tally.devices = try await readDevices()
        try await readReminders(into: tally, from: today - 31)
        tally.pushes.accepted = try await readAcceptedPushes(window: tally.window)
        // The charts show a year at most.
        try await readReceipts(into: tally, from: today - DashboardSnapshot.dailyLength, byKey: true)
    }

    /// New rows only: users, events, items, documents and subscriptions after the highest
    /// id read so far; receipts and reminders of yesterday and today again (their states
    /// change as they come due).
    func incremental(_ tally: DashboardTally) async throws {
        try await readUsers(into: tally)
        try await readNewEvents(into: tally)
        try await readItemsAndDocuments(into: tally)
        try await readSubscriptions(into: tally)
        try await readReminders(into: tally, from: today - 1)
        try await readReceipts(into: tally, from: today - 1)
        try await readActiveBeforeCut(into: tally)
        tally.updatedAt = now
    }

    // MARK: Users

    private func readUsers(into tally: DashboardTally) async throws {
        let buckets = ActivityBucket.allCases.map { $0.condition(now: now) }
        var arguments: [String: DatabaseValue] = [:]
        for bucket in buckets { arguments.merge(bucket.arguments) { first, _ in first } }
        let sql = """
            SELECT id, CAST(status AS TEXT) = 'suspended', CAST(plan AS TEXT) = 'premium',
                   household_id, created_at, last_active_at
                   \(buckets.map { ", (\($0.sql))" }.joined())
            FROM users u
            WHERE id > :after AND CAST(status AS TEXT) IS NOT 'deleted'
            ORDER BY id LIMIT :limit
            """
        let users = tally.users
        let window = tally.window
        let limit = rowsPerRead / 2
        while true {
            var chunkArguments = arguments
            chunkArguments["after"] = users.highWater.databaseValue
            chunkArguments["limit"] = limit.databaseValue
            let read = try await read { [chunkArguments] db in
                try db.forEachRawRow(SQL(sql: sql, arguments: StatementArguments(chunkArguments))) { row in
                    guard let id = row.integer(0) else { return }
                    users.highWater = max(users.highWater, id)
                    let slot = users.slots.add(id)
                    guard slot == users.signUp.count else { return }
                    users.ids.append(id)
                    let signUp = row.seconds(4)
                    users.signUp.append(signUp ?? Int64.min)
                    users.lastActive.append(row.seconds(5) ?? Int64.min)
                    let premium = row.integer(2) == 1
                    users.premium.append(premium)
                    users.total += 1
                    if row.integer(1) == 1 { users.suspended += 1 }
                    if premium { users.premiumCount += 1 }
                    if let signUp {
                        users.signUps.add(day: TimestampBytes.day(ofSeconds: signUp), in: window)
                    } else {
                        users.unreadableSignUps += 1
                    }
                    if let household = row.integer(3) { users.householdMembers[household, default: 0] += 1 }
                    for (index, bucket) in ActivityBucket.allCases.enumerated() where row.integer(6 + Int32(index)) == 1
                    {
                        users.byActivity[bucket, default: 0] += 1
                    }
                }
            }
            if read < limit { break }
        }
        let count = users.slots.count
        tally.events.grow(toUsers: count)
        tally.items.grow(toUsers: count)
        tally.subscriptions.grow(toUsers: count)
    }

    // MARK: Events

    /// The covering index (user, time) from the window's first day on, for the users read,
    /// a range of about `rowsPerRead` events (twenty a user) per read.
    private func readEventsByUser(into tally: DashboardTally, highWater: Int64) async throws {
        let events = tally.events
        let users = tally.users
        let window = tally.window
        let from = SQLiteTime.dayString(daysSinceEpoch: Int64(window.first))
        let usersPerRead = max(1, rowsPerRead / 20)
        let cutSpan = events.activeBeforeCut.span
        var start = 0
        while start < users.ids.count {
            let end = min(start + usersPerRead, users.ids.count)
            let low = users.ids[start]
            let high = users.ids[end - 1]
            try await read { db in
                var currentUser: Int64? = nil
                var slot: Int? = nil
                _ = try db.forEachRawRow(
                    SQL(
                        sql: """
                            SELECT user_id, created_at FROM activity_events
                            WHERE user_id >= ? AND user_id <= ? AND created_at >= ?
                            """, arguments: [low, high, from])
                ) { row in
                    guard let user = row.integer(0) else { return }
                    if user != currentUser {
                        currentUser = user
                        slot = users.slots.slot(of: user)
                    }
                    guard let slot, let seconds = row.seconds(1),
                        let index = window.index(TimestampBytes.day(ofSeconds: seconds))
                    else { return }
                    events.activeDays[slot * DayWindow.words + index >> 6] |= 1 << UInt64(index & 63)
                    if let cutSpan, cutSpan.contains(seconds) {
                        events.activeBeforeCut.add(slot: slot, seconds: seconds)
                    }
                }
            }
            start = end
        }
        events.highWater = max(events.highWater, highWater)
    }

    private func readNewEvents(into tally: DashboardTally) async throws {
        let events = tally.events
        let slots = tally.users.slots
        let window = tally.window
        events.highWater = try await walk(
            "SELECT id, user_id, created_at FROM activity_events WHERE id > ? ORDER BY id LIMIT ?",
            after: events.highWater
        ) { row in
            guard let user = row.integer(1), let slot = slots.slot(of: user), let seconds = row.seconds(2),
                let index = window.index(TimestampBytes.day(ofSeconds: seconds))
            else { return }
            events.activeDays[slot * DayWindow.words + index >> 6] |= 1 << UInt64(index & 63)
            // Late, or stamped in the past: before a cut already read past.
            events.activeBeforeCut.add(slot: slot, seconds: seconds)
        }
    }

    /// The users active on each day an earlier span ends on, up to its time of day, along
    /// the time index: what an earlier refresh read of that day up to its cut is kept, and
    /// only the events since are read. Each row is kept by its parsed time, so a row's
    /// spelling cannot move it across the cut; the 'T' spelling of a day sorts after all of
    /// its 'YYYY-MM-DD HH:MM:SS' rows and is read apart.
    private func readActiveBeforeCut(into tally: DashboardTally) async throws {
        let comparison = PeriodComparison(nowSeconds: nowSeconds, today: today)
        let slots = tally.users.slots
        let events = tally.events
        let kept = events.activeBeforeCut
        var next = ActiveBeforeCut(at: nowSeconds)
        for (day, cut) in comparison.cuts {
            let first: Int64
            if let bits = kept.days[day], let earlier = kept.cuts[day], earlier <= cut {
                next.days[day] = bits
                first = earlier + 1
            } else {
                next.days[day] = []
                first = PeriodComparison.start(of: day)
            }
            next.cuts[day] = cut
            // Read up to this cut already (the full count's walk by user).
            guard first <= cut else { continue }
            let found = Box(next)
            let keep: @Sendable (RawRow) -> Void = { row in
                guard let seconds = row.seconds(0), seconds >= first, let user = row.integer(2),
                    let slot = slots.slot(of: user)
                else { return }
                found.value.add(slot: slot, seconds: seconds)
            }
            let dayText = SQLiteTime.dayString(daysSinceEpoch: Int64(day))
            try await walkByTime(
                table: "activity_events", time: "created_at", columns: "user_id",
                fromText: SQLiteTime.string(secondsSinceEpoch: first),
                until: SQLiteTime.string(secondsSinceEpoch: cut + 1), each: keep)
            try await walkByTime(
                table: "activity_events", time: "created_at", columns: "user_id",
                fromText: dayText + "T", until: dayText + "U", each: keep)
            next = found.value
        }
        events.activeBeforeCut = next
    }

    /// Runs `sql` (the rows after an id, in id order, at most a limit of them, the id first)
    /// read after read, each after the highest id so far, until a read comes back short.
    /// Returns the highest id read.
    func walk(_ sql: String, after start: Int64, each: @escaping @Sendable (RawRow) -> Void) async throws -> Int64 {
        var after = start
        let limit = rowsPerRead
        while true {
            let (read, last) = try await read { [after] db in
                var last = after
                let read = try db.forEachRawRow(SQL(sql: sql, arguments: [after, limit])) { row in
                    if let id = row.integer(0) { last = max(last, id) }
                    each(row)
                }
                return (read, last)
            }
            after = last
            if read < limit { return after }
        }
    }
}
