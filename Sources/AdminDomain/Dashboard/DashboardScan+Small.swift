import Foundation
import GRDB

extension DashboardScan {
    func readHouseholds(window: DayWindow) async throws -> HouseholdTally {
        let tally = Box(HouseholdTally())
        _ = try await walk("SELECT id, created_at FROM households WHERE id > ? ORDER BY id LIMIT ?", after: Int64.min) {
            row in
            tally.value.total += 1
            tally.value.created.add(
                day: row.seconds(1).map(TimestampBytes.day(ofSeconds:)) ?? window.first - 1, in: window)
        }
        return tally.value
    }

    /// Devices change in place (permissions, platforms), so they are counted whole, by key.
    func readDevices() async throws -> DeviceTally {
        let platforms = ValueBytes<Platform>()
        let permissions = ValueBytes<PushPermission>()
        // Counted by the two values' places (the last for any other value), named at the end:
        // two String keys a row were a dictionary's hashing a device.
        let width = PushPermission.allCases.count + 1
        let counts = Box([Int](repeating: 0, count: (Platform.allCases.count + 1) * width))
        _ = try await walk(
            """
            SELECT id, CAST(platform AS TEXT), CAST(push_permission AS TEXT) FROM devices
            WHERE id > ? ORDER BY id LIMIT ?
            """, after: Int64.min
        ) { row in
            let platform = platforms.index(in: row, column: 1) ?? Platform.allCases.count
            let permission = permissions.index(in: row, column: 2) ?? PushPermission.allCases.count
            counts.value[platform * width + permission] += 1
        }
        func name<Term: CaseIterable & RawRepresentable>(_: Term.Type, _ index: Int) -> String
        where Term.RawValue == String {
            index < Term.allCases.count ? Array(Term.allCases)[index].rawValue : "other"
        }
        var tally = DeviceTally()
        for (index, count) in counts.value.enumerated() where count > 0 {
            tally.counts[name(Platform.self, index / width), default: [:]][
                name(PushPermission.self, index % width), default: 0] += count
        }
        return tally
    }

    /// The window's days a re-read from `from` covers: up to today, within the window; nil
    /// when none.
    func rereadDays(from: Int, in window: DayWindow) -> ClosedRange<Int>? {
        let first = max(from, window.first)
        let last = min(today, window.last)
        return first <= last ? first...last : nil
    }

    /// Reminders due from the start of `from` (a day) until now, by day, in time order
    /// along their time index (each looked up for its status). The days read replace what
    /// the tally had for them.
    func readReminders(into tally: DashboardTally, from: Int) async throws {
        let window = tally.window
        guard let days = rereadDays(from: from, in: window) else { return }
        let statuses = ValueBytes<ReminderStatus>()
        let sentIndex = ReminderStatus.allCases.firstIndex(of: .sent)
        let failedIndex = ReminderStatus.allCases.firstIndex(of: .failed)
        let counts = Box(ReminderTally())
        try await walkByTime(
            table: "reminders", time: "scheduled_for", columns: "CAST(status AS TEXT)",
            from: days.lowerBound, until: SQLiteTime.string(now)
        ) { row in
            guard let seconds = row.seconds(0) else { return }
            let status = statuses.index(in: row, column: 2)
            if status == sentIndex { counts.value.sent.add(day: TimestampBytes.day(ofSeconds: seconds), in: window) }
            if status == failedIndex {
                counts.value.failed.add(day: TimestampBytes.day(ofSeconds: seconds), in: window)
            }
        }
        for index in days.map({ $0 - window.first }) {
            tally.reminders.sent.days[index] = counts.value.sent.days[index]
            tally.reminders.failed.days[index] = counts.value.failed.days[index]
        }
    }

    /// Rows of `table` whose `time` is from the start of day `from` until `until`, in time
    /// order along its index, `rowsPerRead` a read, each read after the last (time, id).
    /// `each` gets the time, the id, then `columns`.
    func walkByTime(
        table: String, time: String, columns: String, from: Int, until: String,
        each: @escaping @Sendable (RawRow) -> Void
    ) async throws {
        try await walkByTime(
            table: table, time: time, columns: columns,
            fromText: SQLiteTime.dayString(daysSinceEpoch: Int64(from)), until: until, each: each)
    }

    /// A walk by time reads more rows a read than a walk by key: its cache starts empty each read.
    static let lookupsPerRowRead = 4
    static let lookupCacheKiB = 65_536

    /// The same from a time as the backend writes it ('YYYY-MM-DD HH:MM:SS') or any text.
    func walkByTime(
        table: String, time: String, columns: String, fromText: String, until: String,
        each: @escaping @Sendable (RawRow) -> Void
    ) async throws {
        let sql = """
            SELECT \(time), id, \(columns) FROM \(table) WHERE (\(time), id) > (?, ?) AND \(time) < ?
            ORDER BY \(time), id LIMIT ?
            """
        var after: [DatabaseValue] = [fromText.databaseValue, Int64.min.databaseValue]
        let limit = rowsPerRead * Self.lookupsPerRowRead
        while true {
            let (read, last) = try await read { [after] db in
                // Each row is looked up in its table, in time order, which need not be the
                // table's: with SQLite's 2 MB cache (125 of the app's 16 KiB pages) nearly every
                // lookup read a page again, 17 GB for a year's 1.15 million receipts. The read's
                // own cache holds what it touches, and is given back when it ends.
                let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
                try db.execute(sql: "PRAGMA cache_size = \(-Self.lookupCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
                var last = after
                let read = try db.forEachRawRow(
                    SQL(sql: sql, arguments: StatementArguments(after + [until.databaseValue, limit.databaseValue]))
                ) { row in
                    if let time = row.text(0), let id = row.integer(1) {
                        last = [time.databaseValue, id.databaseValue]
                    }
                    each(row)
                }
                return (read, last)
            }
            if read < limit || last == after { return }
            after = last
        }
    }

    /// Campaign pushes the providers accepted, by the day the answer was recorded.
    func readAcceptedPushes(window: DayWindow) async throws -> DayCounts {
        let counts = Box(DayCounts())
        _ = try await walk(
            """
            SELECT id, updated_at FROM panel_deliveries
            WHERE id > ? AND state = \(DeliveryState.accepted.sqlLiteral) ORDER BY id LIMIT ?
            """, after: Int64.min
        ) { row in
            counts.value.add(day: row.seconds(1).map(TimestampBytes.day(ofSeconds:)) ?? window.first - 1, in: window)
        }
        return counts.value
    }

    /// Deliveries the devices confirmed, each counted once a day and event, from `from` (a
    /// day) on: by key (`readReceiptsByKey`) when `byKey` and there are not too many, else in
    /// time order along the receipts' time index (each looked up for its event and
    /// delivery). The days read replace what the tally had for them.
    func readReceipts(into tally: DashboardTally, from: Int, byKey: Bool = false) async throws {
        let window = tally.window
        guard let days = rereadDays(from: from, in: window) else { return }
        let counts: KeyedReceipts.Counts
        if byKey, let keyed = try await readReceiptsByKey(days: days, window: window) {
            counts = keyed
        } else {
            counts = try await readReceiptsByTime(days: days, window: window)
        }
        for index in days.map({ $0 - window.first }) {
            tally.pushes.received.days[index] = counts.received.days[index]
            tally.pushes.opened.days[index] = counts.opened.days[index]
        }
    }

    private func readReceiptsByTime(days: ClosedRange<Int>, window: DayWindow) async throws -> KeyedReceipts.Counts {
        let counts = Box(DailyReceipts())
        try await walkByTime(
            table: "push_receipts", time: "created_at", columns: "CAST(event AS TEXT), CAST(delivery_id AS TEXT)",
            from: days.lowerBound, until: SQLiteTime.dayString(daysSinceEpoch: Int64(days.upperBound + 1))
        ) { row in
            guard let seconds = row.seconds(0), let delivery = row.bytes(3) else { return }
            counts.value.add(
                day: TimestampBytes.day(ofSeconds: seconds), opened: row.text(2, is: DailyReceipts.opened),
                received: row.text(2, is: DailyReceipts.received), delivery: TextKey(delivery), window: window)
        }
        counts.value.finishDay(window: window)
        return KeyedReceipts.Counts(received: counts.value.received, opened: counts.value.opened)
    }
}

/// Receipts read in time order, each delivery counted once a day and event: only one day's
/// deliveries are remembered at a time.
struct DailyReceipts {
    static let received = Array("received".utf8), opened = Array("opened".utf8)
    var received = DayCounts(), opened = DayCounts()
    private var day: Int?
    private var receivedToday: Set<TextKey> = [], openedToday: Set<TextKey> = []

    mutating func add(day: Int, opened isOpened: Bool, received isReceived: Bool, delivery: TextKey, window: DayWindow)
    {
        if day != self.day {
            finishDay(window: window)
            self.day = day
        }
        if isReceived { receivedToday.insert(delivery) }
        if isOpened { openedToday.insert(delivery) }
    }

    mutating func finishDay(window: DayWindow) {
        if let day {
            received.add(day: day, in: window, receivedToday.count)
            opened.add(day: day, in: window, openedToday.count)
        }
        receivedToday.removeAll(keepingCapacity: true)
        openedToday.removeAll(keepingCapacity: true)
    }
}

/// A text's bytes as a set's key, exactly: up to 31 bytes in four words with the length in the
/// last byte (no allocation; a receipt's delivery id is about 12), a longer one as a String.
/// The year's 1.15 million receipts made a String each to be counted once a day.
enum TextKey: Hashable, Sendable {
    case short(UInt64, UInt64, UInt64, UInt64)
    case long(String)

    init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count < 32 else {
            self = .long(String(decoding: bytes, as: UTF8.self))
            return
        }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { packed in
            packed.copyMemory(from: bytes)
            packed[31] = UInt8(bytes.count)
        }
        self = .short(words.0, words.1, words.2, words.3)
    }
}

/// A value filled by a walk's rows, one read after another (never two at once).
final class Box<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
