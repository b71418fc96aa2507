import Foundation

/// Reads the backend's 'YYYY-MM-DD HH:MM:SS' and 'YYYY-MM-DD' straight from SQLite's bytes:
/// the dashboard reads tens of millions of them, and a String each would cost more than
/// the read. Anything else (hostile text, a number, an impossible date) is nil.
enum TimestampBytes {
    /// 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' ('T' for the space is read too).
    static func seconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count == 10 || bytes.count == 19 else { return nil }
        func number(_ from: Int, _ width: Int) -> Int64? {
            var value: Int64 = 0
            for index in from..<(from + width) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let days = SQLiteTime.daysSinceEpoch(year: year, month: month, day: day)
        guard bytes.count == 19 else { return days * 86_400 }
        guard bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    static func day(ofSeconds seconds: Int64) -> Int {
        Int(SQLiteTime.floorDivide(seconds, 86_400).0)
    }
}
