import Foundation

/// One user's activity by local day: for each day with any, a 24-bit mask of the local hours
/// that had some. Stored as `panel_usual_hours.days`, 7 bytes a day (the day since 1970 as 4
/// bytes, the mask as 3, little-endian), oldest first. Folding an event in twice changes
/// nothing, so a refresh that reads a row again cannot count it twice.
public struct ActivityDays: Sendable, Equatable {
    public static let window = 60

    /// Day number (local days since 1970-01-01) to hours mask.
    public private(set) var masks: [Int32: UInt32] = [:]

    public init() {}

    public init(blob: Data) {
        var index = blob.startIndex
        while blob.distance(from: index, to: blob.endIndex) >= 7 {
            let bytes = blob[index..<blob.index(index, offsetBy: 7)].map { UInt32($0) }
            let day = Int32(bitPattern: bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24)
            masks[day, default: 0] |= (bytes[4] | bytes[5] << 8 | bytes[6] << 16) & 0xFF_FFFF
            index = blob.index(index, offsetBy: 7)
        }
    }

    public var blob: Data {
        var data = Data(capacity: masks.count * 7)
        for day in masks.keys.sorted() {
            let d = UInt32(bitPattern: day)
            let m = masks[day]!
            data.append(contentsOf: [
                UInt8(d & 0xFF), UInt8(d >> 8 & 0xFF), UInt8(d >> 16 & 0xFF), UInt8(d >> 24),
                UInt8(m & 0xFF), UInt8(m >> 8 & 0xFF), UInt8(m >> 16 & 0xFF),
            ])
        }
        return data
    }

    public mutating func add(day: Int32, hour: Int) {
        guard (0..<24).contains(hour) else { return }
        masks[day, default: 0] |= 1 << UInt32(hour)
    }

    /// Forgets the days before the window ending `today`.
    public mutating func keep(upTo today: Int32) {
        masks = masks.filter { $0.key > today - Int32(Self.window) && $0.key <= today }
    }

    /// Days in the window ending `today` with activity at each local hour.
    public func counts(today: Int32) -> [Int] {
        var counts = [Int](repeating: 0, count: 24)
        for (day, mask) in masks where day > today - Int32(Self.window) && day <= today {
            for hour in 0..<24 where mask & (1 << UInt32(hour)) != 0 { counts[hour] += 1 }
        }
        return counts
    }

    /// Days in the window ending `today` with any activity.
    public func activeDays(today: Int32) -> Int {
        masks.keys.filter { $0 > today - Int32(Self.window) && $0 <= today }.count
    }

    /// The earliest day still kept, if any.
    public var oldest: Int32? { masks.keys.min() }
}
