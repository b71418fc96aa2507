import Foundation

/// Counts the text values of one column by their bytes: millions of rows hold a handful of
/// distinct values, so a value is compared with those seen before (the last one first)
/// and becomes a String only when the figures are derived. At most `kept` distinct values
/// are kept, the rest counted together, so a hostile database cannot grow it without bound.
struct LabelCounts: Sendable, Equatable {
    static let kept = 200

    private(set) var labels: [[UInt8]] = []
    private(set) var counts: [Int] = []
    private(set) var nulls = 0
    private(set) var others = 0
    private var last = 0

    mutating func add(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else {
            nulls += 1
            return
        }
        if last < labels.count, Self.equal(labels[last], bytes) {
            counts[last] += 1
            return
        }
        for index in labels.indices where Self.equal(labels[index], bytes) {
            counts[index] += 1
            last = index
            return
        }
        guard labels.count < Self.kept else {
            others += 1
            return
        }
        labels.append(Array(bytes.bindMemory(to: UInt8.self)))
        counts.append(1)
        last = labels.count - 1
    }

    static func equal(_ label: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        label.count == bytes.count
            && label.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// The counts by name: at most 64 characters of each value (longer ones cut, with "…"),
    /// NULL under `null`, the values past the kept ones under `DashboardScan.otherValues`.
    func byName(null: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for (label, count) in zip(labels, counts) {
            let text = String(decoding: label, as: UTF8.self)
            result[text.count > 64 ? String(text.prefix(64)) + "…" : text, default: 0] += count
        }
        if nulls > 0 { result[null, default: 0] += nulls }
        if others > 0 { result[DashboardScan.otherValues, default: 0] += others }
        return result
    }
}

/// Items by expiry day over twenty years around the window, with what falls before and
/// after: enough to split them into expired, expiring soon and safe on any day the tally
/// lives, without a dictionary lookup per row.
struct ExpiryCounts: Sendable, Equatable {
    static let margin = 3_650
    let first: Int
    private(set) var days: [Int]
    private(set) var before = 0, after = 0

    init(window: DayWindow) {
        first = window.first - Self.margin
        days = [Int](repeating: 0, count: DayWindow.length + 2 * Self.margin)
    }

    mutating func add(day: Int) {
        let index = day - first
        if index < 0 { before += 1 } else if index < days.count { days[index] += 1 } else { after += 1 }
    }

    /// Expired (before `today`), expiring within 30 days, safe.
    func split(today: Int) -> [Int] {
        let soonFirst = today - first
        let soonLast = today + 30 - first
        var counts = [before, 0, after]
        for (index, count) in days.enumerated() where count != 0 {
            counts[index < soonFirst ? 0 : index <= soonLast ? 1 : 2] += count
        }
        return counts
    }
}

/// A vocabulary's values as bytes, in case order, to find a column's value among them
/// without making a String.
struct ValueBytes<Term: CaseIterable & RawRepresentable>: Sendable where Term.RawValue == String {
    let values: [[UInt8]] = Term.allCases.map { Array($0.rawValue.utf8) }

    /// The index of the column's value in `Term.allCases`; nil for any other value.
    func index(in row: RawRow, column: Int32) -> Int? {
        index(of: row.bytes(column))
    }

    func index(of bytes: UnsafeRawBufferPointer?) -> Int? {
        guard let bytes else { return nil }
        return values.firstIndex { LabelCounts.equal($0, bytes) }
    }
}
