/// Why a `--db` path cannot be used. Each reads as one line for the command line.
public enum DatabaseOpenError: Error, Equatable, CustomStringConvertible {
    case fileNotFound(path: String)
    case notAFile(path: String)
    case notSQLite(path: String)
    case missingAppTables(path: String, missing: [String])
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "database not found: \(path) (create one with `admin-panel seed --db \(path) --users 1000`)"
        case .notAFile(let path):
            "not a database file: \(path) is a directory or a special file"
        case .notSQLite(let path):
            "not an SQLite database: \(path)"
        case .missingAppTables(let path, let missing):
            "not an Expiry Tracker database: \(path) has no table \(missing.joined(separator: ", "))"
        case .unreadable(let path, let reason):
            "cannot open \(path): \(reason)"
        }
    }
}
