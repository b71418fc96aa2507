import AdminDomain
import Crypto
import Foundation
import GRDB

/// A SHA-256 over every row of every app table, in rowid order: equal digests before and
/// after a test flow mean the panel wrote nothing to the backend's tables.
public func appTablesDigest(path: String) throws -> String {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    return try queue.read { db in
        var hasher = SHA256()
        for table in AppSchema.tableNames {
            hasher.update(data: Data(table.utf8))
            // SQLite writes each row out (quote() keeps every type apart: 1, 1.0, '1', X'01',
            // NULL) and the hash runs once per table: row by row in Swift took seconds in a
            // debug build, for every test that checks the app tables.
            let columns = try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                .map { (row: Row) -> String in row["name"] }
            let values = columns.map { "quote(\"\($0)\")" }.joined(separator: " || ',' || ")
            let text =
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT group_concat(line, char(10)) FROM (SELECT \(values) AS line FROM \(table) ORDER BY rowid)"
                ) ?? ""
            hasher.update(data: Data(text.utf8))
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
