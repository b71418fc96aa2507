import Foundation
import GRDB

#if canImport(SQLite3)
    import SQLite3
#else
    import GRDBSQLite
#endif

/// The current row of a statement stepped with SQLite's own API: the dashboard's walks read
/// tens of millions of rows, and GRDB's `Row` (a value, a `Data` or a `String` per column)
/// cost more than the reads themselves. Every accessor checks the stored type first, since
/// the app's columns may hold what their declared type does not promise.
struct RawRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    /// An integer column; nil for NULL and for anything stored as another type.
    func integer(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, column) : nil
    }

    /// A timestamp or date stored as text, read from its bytes; nil when unreadable.
    func seconds(_ column: Int32) -> Int64? {
        guard sqlite3_column_type(statement, column) == SQLITE_TEXT, let text = sqlite3_column_text(statement, column)
        else { return nil }
        return TimestampBytes.seconds(
            UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))))
    }

    /// A short text column (a state, a code): nil for NULL and anything not text.
    func text(_ column: Int32) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a text column, valid until the next step; nil for NULL and anything not text.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard sqlite3_column_type(statement, column) == SQLITE_TEXT, let bytes = sqlite3_column_text(statement, column)
        else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// Whether a text column is exactly `value`, without making a String.
    func text(_ column: Int32, is value: [UInt8]) -> Bool {
        guard let bytes = bytes(column), bytes.count == value.count else { return false }
        return value.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, value.count) == 0 }
    }
}

extension Database {
    /// Runs `query` and hands each row to `each`; returns how many there were.
    func forEachRawRow(_ query: SQL, _ each: (RawRow) throws -> Void) throws -> Int {
        let (sql, arguments) = try query.build(self)
        let statement = try makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        let row = RawRow(statement: raw)
        var count = 0
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql)
            }
            count += 1
            try each(row)
        }
        sqlite3_reset(raw)
        return count
    }
}
