import AdminDomain
import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import GRDBSQLite
#endif

/// The schema's text, vendored byte for byte from `shared/app-schema.sql` as this target's
/// resource: only the generator creates the app's tables.
extension AppSchema {
    public static var sql: String {
        get throws {
            guard let url = Bundle.module.url(forResource: "app-schema", withExtension: "sql") else {
                throw CocoaError(.fileNoSuchFile)
            }
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    /// The schema split into statements, tables first and indexes last, so a bulk
    /// load can fill the tables before building their indexes. Statements keep their text
    /// and comments, so `sqlite_master` reads as the backend's does.
    public static func statements() throws -> (tables: [String], indexes: [String]) {
        var statements: [String] = []
        var pending = ""
        // Comments hold semicolons too: SQLite itself says where a statement ends.
        for piece in try sql.split(separator: ";", omittingEmptySubsequences: false) {
            pending += piece + ";"
            if sqlite3_complete(pending) != 0 {
                statements.append(pending)
                pending = ""
            }
        }
        func keyword(_ statement: String) -> String {
            statement.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .first { !$0.isEmpty && !$0.hasPrefix("--") } ?? ""
        }
        return (
            statements.filter { keyword($0).hasPrefix("CREATE TABLE") },
            statements.filter { keyword($0).hasPrefix("CREATE INDEX") || keyword($0).hasPrefix("CREATE UNIQUE INDEX") }
        )
    }
}
