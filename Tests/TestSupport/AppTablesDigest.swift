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
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY rowid")
            while let row = try rows.next() {
                for value in row.databaseValues {
                    hasher.update(data: Data(value.description.utf8))
                    hasher.update(data: [0])
                }
                hasher.update(data: [1])
            }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
