import Foundation

/// Reads the backend's 'YYYY-MM-DD HH:MM:SS' and 'YYYY-MM-DD' straight from SQLite's bytes:
/// the dashboard reads tens of millions of them, and a String each would cost more than
/// the read. Anything else (hostile text, a number, an impossible date) is nil.
enum TimestampBytes {
    /// 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' ('T' for the space is read too). Eight bytes
    /// at a time: the full count parses 45 million of these, a byte at a time 1.1 s of CPU.
    static func seconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count == 10 || bytes.count == 19, let base = bytes.baseAddress else { return nil }
        // 'YYYY-MM-', then 'DD'.
        let date = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
        let dayDigits = UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt16.self)))
        guard areDigits(date, at: 0x00FF_FF00_FFFF_FFFF), date & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000,
            areDigits(dayDigits, at: 0xFFFF)
        else { return nil }
        let year = digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3)
        let month = digit(date, 5) * 10 + digit(date, 6)
        let day = digit(dayDigits, 0) * 10 + digit(dayDigits, 1)
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        guard bytes.count == 19 else { return days * 86_400 }
        // 'HH:MM:SS', after a space or a 'T'.
        let separator = bytes[10]
        let time = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "T"),
            areDigits(time, at: 0xFFFF_00FF_FF00_FFFF), time & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000
        else { return nil }
        let hour = digit(time, 0) * 10 + digit(time, 1)
        let minute = digit(time, 3) * 10 + digit(time, 4)
        let second = digit(time, 6) * 10 + digit(time, 7)
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The first day of each month of the years most rows fall in, days since 1970-01-01: a
    /// look-up where the civil formula's divisions were 2.6% of a full count.
    private static let tableYears: ClosedRange<Int64> = 1900...2299
    private static let monthStarts: [Int64] = tableYears.flatMap { year in
        (1...12).map { SQLiteTime.daysSinceEpoch(year: year, month: Int64($0), day: 1) }
    }

    /// As `SQLiteTime.daysSinceEpoch`, which a day past its month's end also runs on from.
    @inline(__always)
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        guard tableYears.contains(year) else { return SQLiteTime.daysSinceEpoch(year: year, month: month, day: day) }
        return monthStarts[Int((year - tableYears.lowerBound) * 12 + month - 1)] + day - 1
    }

    /// Whether every byte of `word` where `mask` has 0xFF is an ASCII digit: its high half
    /// is 3 and its low half at most 9 (adding 6 does not carry into the high half).
    @inline(__always)
    private static func areDigits(_ word: UInt64, at mask: UInt64) -> Bool {
        let high = word & mask & 0xF0F0_F0F0_F0F0_F0F0
        let low = word & mask & 0x0F0F_0F0F_0F0F_0F0F
        return high == mask & 0x3030_3030_3030_3030
            && (low &+ (mask & 0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0 == 0
    }

    /// The digit in byte `index` (0 first) of a word `areDigits` passed.
    @inline(__always)
    private static func digit(_ word: UInt64, _ index: Int) -> Int64 {
        Int64((word >> UInt64(8 * index)) & 0x0F)
    }

    static func day(ofSeconds seconds: Int64) -> Int {
        Int(SQLiteTime.floorDivide(seconds, 86_400).0)
    }
}
