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

/// Prepared INSERTs for one table, re-bound through the C API: the seeder's hot loop.
/// Rows go in groups of `rowsPerStatement` per statement, which pays SQLite's
/// per-statement cost (step, reset, program start) once per group instead of once per row.
final class BulkInsert {
    static let rowsPerStatement = 32

    private let connection: OpaquePointer
    private let width: Int
    private let single: OpaquePointer
    private let group: OpaquePointer
    private(set) var rows = 0

    init(_ db: Database, table: SeedTable) throws {
        connection = db.sqliteConnection!
        width = table.columns.count
        let placeholders = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        let prefix = "INSERT INTO \(table.name) (\(table.columns.joined(separator: ", "))) VALUES "
        single = try Self.prepare(connection, prefix + placeholders)
        group = try Self.prepare(
            connection, prefix + Array(repeating: placeholders, count: Self.rowsPerStatement).joined(separator: ", "))
    }

    deinit {
        sqlite3_finalize(single)
        sqlite3_finalize(group)
    }

    /// `values` holds whole rows, one after the other.
    func insert(_ values: [SeedValue]) throws {
        let rowCount = values.count / width
        var row = 0
        while rowCount - row >= Self.rowsPerStatement {
            try run(group, values[(row * width)..<((row + Self.rowsPerStatement) * width)])
            row += Self.rowsPerStatement
        }
        while row < rowCount {
            try run(single, values[(row * width)..<((row + 1) * width)])
            row += 1
        }
        rows += rowCount
    }

    private func run(_ statement: OpaquePointer, _ values: ArraySlice<SeedValue>) throws {
        var index: Int32 = 1
        for value in values {
            switch value {
            case .int(let number): sqlite3_bind_int64(statement, index, number)
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .null: sqlite3_bind_null(statement, index)
            }
            index += 1
        }
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw Self.error(connection, code) }
    }

    private static func prepare(_ connection: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(connection, code) }
        return prepared
    }

    private static func error(_ connection: OpaquePointer, _ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
    }

    /// SQLITE_TRANSIENT: SQLite copies the text before the Swift string goes away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
