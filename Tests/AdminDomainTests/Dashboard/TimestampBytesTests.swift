import Foundation
import GRDB
import Testing

@testable import AdminDomain

/// The eight-bytes-at-a-time reading of a timestamp against SQLite's own (`strftime('%s')`),
/// on the backend's two spellings with every byte of them in turn replaced by every other
/// printable one: where the text has the backend's shape and its fields their ranges, both
/// give the same second; anywhere else the reading gives nil.
@Suite(.timeLimit(.minutes(20))) struct TimestampBytesTests {
    /// The shape, said as a regular expression rather than as the parser says it.
    static let shape = try! NSRegularExpression(
        pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}:[0-9]{2})?$")

    static func expected(_ text: String, _ db: Database) throws -> Int64? {
        guard shape.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil else { return nil }
        let fields = text.split(whereSeparator: { "- T:".contains($0) }).map { Int($0)! }
        guard (1...12).contains(fields[1]), (1...31).contains(fields[2]) else { return nil }
        if fields.count == 6, fields[3] >= 24 || fields[4] >= 60 || fields[5] >= 60 { return nil }
        return try Int64.fetchOne(db, sql: "SELECT CAST(strftime('%s', ?) AS INTEGER)", arguments: [text])
    }

    static func read(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { TimestampBytes.seconds($0) }
    }

    @Test func everyOneByteChangeReadsAsSQLiteReadsIt() throws {
        let templates = [
            "2026-11-23 09:41:07", "1970-01-01 00:00:00", "2024-02-29T23:59:59", "2026-02-31", "1899-12-31",
            "2300-01-01 12:00:00", "0000-01-01", "9999-12-31 23:59:59", "2026-04-31 00:00:00",
        ]
        let printable = (0x20...0x7E).map { UInt8($0) }
        var checked = 0
        var readable = 0
        try DatabaseQueue().read { db in
            for template in templates {
                let original = Array(template.utf8)
                var texts = [template]
                for index in original.indices {
                    for byte in printable where byte != original[index] {
                        var changed = original
                        changed[index] = byte
                        texts.append(String(decoding: changed, as: UTF8.self))
                    }
                }
                for text in texts {
                    let expected = try Self.expected(text, db)
                    #expect(Self.read(text) == expected, "\(text)")
                    checked += 1
                    if expected != nil { readable += 1 }
                }
            }
        }
        // Both kinds were met, many times.
        #expect(checked > 13_000)
        #expect(readable > 500)
    }

    @Test func shorterLongerAndEmptyTextIsUnreadable() {
        for text in [
            "", "2026-11-2", "2026-11-23 ", "2026-11-23 09:41:0", "2026-11-23 09:41:077", "2026-11-23  09:41:07",
        ] {
            #expect(Self.read(text) == nil, "\(text)")
        }
    }
}
