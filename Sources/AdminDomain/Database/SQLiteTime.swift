import Foundation

/// The backend's timestamp format: UTC text 'YYYY-MM-DD HH:MM:SS', which sorts and
/// compares like SQLite's `datetime()`.
public enum SQLiteTime {
    public static func string(_ date: Date) -> String {
        string(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Hand-formatted: the seeder writes tens of millions of these.
    public static func string(secondsSinceEpoch seconds: Int64) -> String {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (y, m, d) = civilDate(daysSinceEpoch: days)
        var bytes = [UInt8](repeating: UInt8(ascii: "0"), count: 19)
        func put(_ value: Int, at index: Int, width: Int) {
            var v = value
            for i in stride(from: index + width - 1, through: index, by: -1) {
                bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
        }
        put(y, at: 0, width: 4)
        bytes[4] = UInt8(ascii: "-")
        put(m, at: 5, width: 2)
        bytes[7] = UInt8(ascii: "-")
        put(d, at: 8, width: 2)
        bytes[10] = UInt8(ascii: " ")
        put(Int(secondOfDay / 3600), at: 11, width: 2)
        bytes[13] = UInt8(ascii: ":")
        put(Int(secondOfDay % 3600 / 60), at: 14, width: 2)
        bytes[16] = UInt8(ascii: ":")
        put(Int(secondOfDay % 60), at: 17, width: 2)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// 'YYYY-MM-DD' for a day counted from 1970-01-01.
    public static func dayString(daysSinceEpoch days: Int64) -> String {
        String(string(secondsSinceEpoch: days * 86_400).prefix(10))
    }

    /// 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' ('T' for the space too) naming a real day and
    /// time: what the dashboard and the lists can read.
    public static func readable(_ text: String) -> Bool {
        seconds(text) != nil
    }

    /// Seconds since 1970 of a time `readable` accepts; nil for anything else.
    public static func seconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { TimestampBytes.seconds(UnsafeRawBufferPointer($0)) }
    }

    /// Seconds of a time written exactly as the backend writes it, 'YYYY-MM-DD HH:MM:SS' (not
    /// a 'T', not a day alone): the text that sorts in an index as its time does.
    public static func backendSeconds(_ text: String) -> Int64? {
        let bytes = text.utf8
        guard bytes.count == 19, bytes[bytes.index(bytes.startIndex, offsetBy: 10)] == UInt8(ascii: " ") else {
            return nil
        }
        return seconds(text)
    }

    public static func date(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" || $0 == "T" })
            .compactMap { Int64($0) }
        guard parts.count >= 3 else { return nil }
        let days = daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
        let time = parts.count >= 6 ? parts[3] * 3600 + parts[4] * 60 + parts[5] : 0
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + time))
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    /// Howard Hinnant's civil-from-days: no Calendar, no locale, fast enough for bulk seeding.
    public static func civilDate(daysSinceEpoch z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }

    public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
