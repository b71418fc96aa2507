import Foundation
import GRDB
import Testing

@testable import AdminDomain

/// A panel time is stored as the text the panel always wrote, reads back what was stored
/// before it, and compares in SQL as that text.
@Suite(.timeLimit(.minutes(20))) struct PanelTimes {
    @Test func itIsStoredAsTheTextSQLiteWrites() throws {
        let queue = try DatabaseQueue()
        let (mine, sqlites): (String?, String?) = try queue.read { db in
            // 2026-03-04 05:06:07 UTC, written by hand.
            let time = PanelTime(Date(timeIntervalSince1970: 1_772_600_767.9))
            return (
                try String.fetchOne(db, sql: "SELECT ?", arguments: [time]),
                try String.fetchOne(db, sql: "SELECT datetime(1772600767, 'unixepoch')")
            )
        }
        #expect(mine == "2026-03-04 05:06:07")
        #expect(mine == sqlites)
    }

    @Test func storedTextReadsBackTheSame() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (at TEXT)")
            try db.execute(
                sql: "INSERT INTO t VALUES ('2025-12-31 23:59:59'), ('2026-01-01T00:00:00'), ('yesterday'), (NULL)")
        }
        let read = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT at FROM t ORDER BY rowid").map { PanelTime.fromDatabaseValue($0["at"]) }
        }
        #expect(read.map { $0?.text } == ["2025-12-31 23:59:59", "2026-01-01 00:00:00", nil, nil])
    }

    @Test func sqlComparesItAsText() throws {
        let queue = try DatabaseQueue()
        let earlier = PanelTime(secondsSinceEpoch: 1_767_225_599)
        let later = PanelTime(secondsSinceEpoch: 1_767_225_600)
        let newer = try queue.write { db -> [String] in
            try db.execute(sql: "CREATE TABLE t (at TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?), (?)", arguments: [earlier, later])
            return try String.fetchAll(db, sql: "SELECT at FROM t WHERE at > ?", arguments: [earlier])
        }
        #expect(newer == ["2026-01-01 00:00:00"])
        #expect(earlier < later)
    }

    @Test func itTravelsInCodableRecordsAsItsText() throws {
        struct Stamp: Codable { var at: PanelTime }
        let json = try JSONEncoder().encode(Stamp(at: PanelTime(secondsSinceEpoch: 0)))
        #expect(String(decoding: json, as: UTF8.self) == #"{"at":"1970-01-01 00:00:00"}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Stamp.self, from: Data(#"{"at":"soon"}"#.utf8)) }
    }
}
