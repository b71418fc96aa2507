import Foundation
import GRDB

/// The shared SQLite file, opened twice: a read-only pool for the app's tables and a
/// single writer for the panel's own `panel_*` tables.
public struct PanelDatabase: Sendable {
    /// Read-only: opened with SQLITE_OPEN_READONLY and `query_only`, so no code path can
    /// write an app table through it.
    public let reader: any DatabaseReader
    /// Writes `panel_*` tables only, in short immediate transactions.
    public let writer: any DatabaseWriter

    /// How long a statement waits for the backend's write lock before failing.
    static let busyTimeout: TimeInterval = 5

    public init(reader: any DatabaseReader, writer: any DatabaseWriter) {
        self.reader = reader
        self.writer = writer
    }

    /// Opens an existing app database, checks that it is one, and migrates the panel's tables.
    public static func open(path: String) throws -> PanelDatabase {
        try checkFile(at: path)

        var writerConfig = Configuration()
        writerConfig.label = "panel.writer"
        writerConfig.busyMode = .timeout(busyTimeout)
        let writer: DatabaseQueue
        do {
            writer = try DatabaseQueue(path: path, configuration: writerConfig)
            let missing = try writer.read { db in
                try AppSchema.tableNames.filter { try !db.tableExists($0) }
            }
            guard missing.isEmpty else {
                throw DatabaseOpenError.missingAppTables(path: path, missing: missing)
            }
            try PanelMigrations.migrate(writer)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw DatabaseOpenError.notSQLite(path: path)
        } catch let error as DatabaseError {
            throw DatabaseOpenError.unreadable(path: path, reason: error.message ?? "\(error.resultCode)")
        }

        // Opened after the writer: a read-only connection to a WAL database needs the
        // -wal and -shm files, which the writer's open connection keeps in place.
        var readerConfig = Configuration()
        readerConfig.label = "panel.reader"
        readerConfig.readonly = true
        readerConfig.busyMode = .timeout(busyTimeout)
        readerConfig.maximumReaderCount = 4
        readerConfig.prepareDatabase { db in
            try db.execute(sql: "PRAGMA query_only = 1")
        }
        let reader = try DatabasePool(path: path, configuration: readerConfig)
        return PanelDatabase(reader: reader, writer: writer)
    }

    /// Rejects what SQLite would otherwise silently create or misread: a missing path
    /// (opening would create an empty database), a directory, a file of another kind.
    static func checkFile(at path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DatabaseOpenError.fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else { throw DatabaseOpenError.notAFile(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DatabaseOpenError.unreadable(path: path, reason: "permission denied")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty {
            // An empty file is a valid, empty SQLite database: it has no app tables.
            throw DatabaseOpenError.missingAppTables(path: path, missing: AppSchema.tableNames)
        }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw DatabaseOpenError.notSQLite(path: path)
        }
    }
}
