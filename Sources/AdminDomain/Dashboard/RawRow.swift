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
///
/// Each accessor takes the column's value once (`sqlite3_column_value`) and asks it its type
/// and contents: every `sqlite3_column_*` call enters and leaves the statement's error and
/// mutex bookkeeping, three times a text column, 18% of a full count's CPU. The value is
/// SQLite's "unprotected" kind, which is only unsafe where a connection is shared between
/// threads at once; GRDB hands a connection to one thread at a time.
struct RawRow {
    let statement: OpaquePointer

    private func value(_ column: Int32) -> OpaquePointer? {
        sqlite3_column_value(statement, column)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_value_type(value(column)) == SQLITE_NULL
    }

    /// An integer column; nil for NULL and for anything stored as another type.
    func integer(_ column: Int32) -> Int64? {
        let value = value(column)
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    /// A timestamp or date stored as text, read from its bytes; nil when unreadable.
    func seconds(_ column: Int32) -> Int64? {
        bytes(column).flatMap(TimestampBytes.seconds)
    }

    /// A short text column (a state, a code): nil for NULL and anything not text.
    func text(_ column: Int32) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a text column, valid until the next step; nil for NULL and anything not text.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        let value = value(column)
        guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
    }

    /// Any value but NULL as text, as `CAST(column AS TEXT)` reads it (SQLite converts a number
    /// or a blob the same way), without the cast's step in the statement.
    func castText(_ column: Int32) -> UnsafeRawBufferPointer? {
        let value = value(column)
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
    }

    /// Whether a text column is exactly `value`, without making a String.
    func text(_ column: Int32, is value: [UInt8]) -> Bool {
        bytes(column).map { LabelCounts.equal(value, $0) } ?? false
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
