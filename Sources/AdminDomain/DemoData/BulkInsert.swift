import GRDB
#if canImport(SQLite3)
import SQLite3
#else
import GRDBSQLite
#endif

enum SeedValue: Sendable {
    case int(Int64)
    case text(String)
    case null

    static func optionalText(_ value: String?) -> SeedValue { value.map { .text($0) } ?? .null }
    static func int(_ value: Int) -> SeedValue { .int(Int64(value)) }
}

/// One prepared INSERT, re-bound for every row through the C API: the seeder's hot loop.
final class BulkInsert {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private(set) var rows = 0

    init(_ db: Database, sql: String) throws {
        connection = db.sqliteConnection!
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        statement = prepared
    }

    deinit {
        sqlite3_finalize(statement)
    }

    func insert(_ values: ArraySlice<SeedValue>) throws {
        for (offset, value) in zip(values.indices, values) {
            let index = Int32(offset - values.startIndex + 1)
            switch value {
            case let .int(number): sqlite3_bind_int64(statement, index, number)
            case let .text(text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
        rows += 1
    }

    /// SQLITE_TRANSIENT: SQLite copies the text before the Swift string goes away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
