import Foundation
import GRDB

extension DashboardScan {
    /// A year of receipts walked by key, the full count's way: in time order each was looked up
    /// in its table (1.15 million lookups, 2.5 s of a count's CPU). Each receipt of the days
    /// read becomes an entry of 24 bytes (`KeyedReceipts`); nil when there are more than
    /// `receiptsByKey` of them, for the walk by time, which holds one day at a time.
    func readReceiptsByKey(days: ClosedRange<Int>, window: DayWindow) async throws -> KeyedReceipts.Counts? {
        let keyed = Box(KeyedReceipts(window: window, limit: receiptsByKey))
        _ = try await walk(
            """
            SELECT id, created_at, CAST(event AS TEXT), CAST(delivery_id AS TEXT) FROM push_receipts
            WHERE id > ? ORDER BY id LIMIT ?
            """, after: Int64.min
        ) { row in
            guard !keyed.value.isFull, let id = row.integer(0), let seconds = row.seconds(1),
                let delivery = row.bytes(3)
            else { return }
            let day = TimestampBytes.day(ofSeconds: seconds)
            guard days.contains(day) else { return }
            let opened = row.text(2, is: DailyReceipts.opened)
            guard opened || row.text(2, is: DailyReceipts.received) else { return }
            keyed.value.add(day: day, opened: opened, delivery: delivery, row: id)
        }
        guard !keyed.value.isFull else { return nil }
        // Entries alike but for their row: the same delivery (or, rarely, a hash shared by
        // two), told apart by their deliveries read again.
        let rows = keyed.value.rowsToCompare()
        var deliveries: [Int64: [UInt8]] = [:]
        for start in stride(from: 0, to: rows.count, by: 500) {
            let chunk = Array(rows[start..<min(start + 500, rows.count)])
            let read = try await read { db in
                var found: [(Int64, [UInt8])] = []
                _ = try db.forEachRawRow(
                    SQL(
                        sql: """
                            SELECT id, CAST(delivery_id AS TEXT) FROM push_receipts
                            WHERE id IN (\(chunk.map { _ in "?" }.joined(separator: ",")))
                            """, arguments: StatementArguments(chunk))
                ) { row in
                    if let id = row.integer(0), let bytes = row.bytes(1) { found.append((id, Array(bytes))) }
                }
                return found
            }
            for (id, bytes) in read { deliveries[id] = bytes }
        }
        return keyed.value.counts(deliveries: deliveries)
    }
}

/// Receipts in any order, each delivery counted once a day and event. A receipt is kept as
/// its day and event, a hash of its delivery and its row; sorted, runs of one (day, event,
/// hash) are one delivery each, where a run of several is counted by its rows' deliveries,
/// read again: exact, in 24 bytes a receipt.
struct KeyedReceipts {
    /// 96 MB of entries.
    static let limit = 4_000_000

    struct Entry: Comparable {
        /// The day's place in the window, twice, plus one when opened.
        var group: UInt16
        var hash: UInt64
        var row: Int64

        static func < (left: Entry, right: Entry) -> Bool {
            (left.group, left.hash, left.row) < (right.group, right.hash, right.row)
        }
    }

    struct Counts {
        var received = DayCounts(), opened = DayCounts()
    }

    let window: DayWindow
    let limit: Int
    private var entries: [Entry] = []
    private(set) var isFull = false
    private var sorted = false

    init(window: DayWindow, limit: Int = Self.limit) {
        self.window = window
        self.limit = limit
    }

    /// `day` must be within the window.
    mutating func add(day: Int, opened: Bool, delivery: UnsafeRawBufferPointer, row: Int64) {
        guard entries.count < limit else {
            isFull = true
            entries = []
            return
        }
        var hasher = Hasher()
        hasher.combine(bytes: delivery)
        let group = UInt16(day - window.first) << 1 | (opened ? 1 : 0)
        entries.append(Entry(group: group, hash: UInt64(bitPattern: Int64(hasher.finalize())), row: row))
    }

    /// The rows of every run of more than one entry alike but for the row.
    mutating func rowsToCompare() -> [Int64] {
        entries.sort()
        sorted = true
        var rows: [Int64] = []
        forEachRun { run in
            if run.count > 1 { rows.append(contentsOf: run.map(\.row)) }
        }
        return rows
    }

    /// The distinct deliveries a day and event; `deliveries`: each compared row's delivery (a
    /// row gone since it was walked is left out).
    mutating func counts(deliveries: [Int64: [UInt8]]) -> Counts {
        if !sorted {
            entries.sort()
            sorted = true
        }
        var counts = Counts()
        forEachRun { run in
            let distinct = run.count == 1 ? 1 : Set(run.compactMap { deliveries[$0.row] }).count
            let day = window.first + Int(run[run.startIndex].group >> 1)
            if run[run.startIndex].group & 1 == 1 {
                counts.opened.add(day: day, in: window, distinct)
            } else {
                counts.received.add(day: day, in: window, distinct)
            }
        }
        return counts
    }

    private func forEachRun(_ body: (ArraySlice<Entry>) -> Void) {
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].group == entries[start].group,
                entries[end].hash == entries[start].hash
            {
                end += 1
            }
            body(entries[start..<end])
            start = end
        }
    }
}
