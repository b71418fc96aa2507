import Foundation
import GRDB
import Metrics

/// The shared SQLite file, opened several times: read-only pools for the app's tables and a
/// single writer for the panel's own `panel_*` tables (with a second, unsynced, for looks).
///
/// The only way in is `read` and `write`, both async, and both take a closure whose result
/// is `Sendable`: rows are decoded inside the closure. GRDB also has synchronous `read` and
/// `write`, which Swift picks silently when the result is not `Sendable` (a `[Row]`, say);
/// called from async code they block a cooperative thread while waiting for a connection,
/// and with as few threads as cores that waits forever. They are not reachable from here.
public struct PanelDatabase: Sendable {
    /// Read-only: opened with SQLITE_OPEN_READONLY and `query_only`, so no code path can
    /// write an app table through it.
    private let reader: DatabasePool
    /// Read-only too, two connections of its own for `readAtLowPriority`: a count starved of
    /// the cores must not hold connections the requests' reads wait for.
    private let backgroundReader: DatabasePool
    /// Read-only, two connections for the background jobs' `read`s (`DatabaseLane.job`): a job
    /// never holds a connection a request waits for, however many run at once (issue 46).
    private let jobReader: DatabasePool
    /// Read-only, two connections for the requests' low-priority reads: CSV exports being written
    /// (`DatabaseLane.export`) and `readAtLowPriority` outside a job, read from threads at the
    /// lowest priority: downloads never hold up sign-in, search or /health.
    private let exportReader: DatabasePool
    /// Writes `panel_*` tables only, in short immediate transactions.
    private let writer: DatabaseQueue
    /// The same, for rows that need not wait for the disk (`writeWithoutWaitingForDisk`).
    private let unsyncedWriter: DatabaseQueue

    /// The file, for the health check.
    public let path: String
    /// Whether another connection committed, looked at once every two seconds however many
    /// jobs of this process ask: what lets an idle panel leave the file alone.
    public let watch: DatabaseWatch
    /// The looks' audit rows, many callers a transaction on the unsynced writer (`writeGrouped`).
    let groupedWrites: GroupedWrites
    /// Tests only: holds every background job at its next access (`JobHold`).
    public var jobHold: JobHold?

    /// How long a statement waits for the backend's write lock before failing.
    static let busyTimeout: TimeInterval = 5

    /// One read transaction on the read-only pool of the task's lane (`DatabaseLane`): a
    /// request's on the requests' four connections, a background job's on the jobs' two, an
    /// export's on its own two from a thread at the lowest priority. The connection wait and
    /// the query run on GRDB's Dispatch queues (or those threads).
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        switch DatabaseLane.current {
        case .request:
            defer { Self.record("read", since: started) }
            return try await reader.read(value)
        case .job(let name):
            defer { Self.record("job_read", since: started) }
            guard let hold = jobHold, hold.holdsJobs else { return try await jobReader.read(value) }
            return try await jobReader.read { db in
                hold.holdBlocking(name)
                return try value(db)
            }
        case .export:
            defer { Self.record("export_read", since: started) }
            let reader = exportReader
            // A test's hold waits before the read: the threads are the whole process's.
            if let hold = jobHold, hold.holdsExports { await hold.hold("export") }
            return try await LowPriorityThreads.requests.runAbandoningOnCancel { try reader.read(value) }
        }
    }

    /// One read transaction like `read`, run on a thread at the lowest priority: for long
    /// background work (the dashboard's count) that must leave the cores to requests. The
    /// pool's synchronous read is safe there: that thread is none of Swift's. A job's runs on the
    /// jobs' two threads and connections; a request's (a journey's report) on the two threads
    /// and connections of the requests' low-priority reads, which exports use too.
    public func readAtLowPriority<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { Self.record("low_priority_read", since: started) }
        // A request's (a journey's report) on the requests' own: never behind a job (issue 46).
        guard DatabaseLane.current.jobName != nil else {
            let reader = exportReader
            return try await LowPriorityThreads.requests.runAbandoningOnCancel { try reader.read(value) }
        }
        let reader = self.backgroundReader
        // A test's hold waits before the read: the two threads are the whole process's, and a
        // job held on them would hold every other test's panel too.
        if let hold = jobHold, hold.holdsJobs, let name = DatabaseLane.current.jobName { await hold.hold(name) }
        return try await LowPriorityThreads.shared.runAbandoningOnCancel { try reader.read(value) }
    }

    /// One immediate write transaction on the panel's writer; the wait for the write lock
    /// (up to the busy timeout) runs on GRDB's Dispatch queue.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { Self.record("write", since: started) }
        // A job held by a test waits before its transaction, holding no lock.
        if let hold = jobHold, hold.holdsJobs, let name = DatabaseLane.current.jobName { await hold.hold(name) }
        return try await writer.write(updates)
    }

    /// SQLite's `data_version` on the writer's connection: it moves when another connection
    /// commits (another process, such as the CLI, or the unsynced writer), never for this
    /// writer's own commits, which the change feed publishes. A read, no lock taken.
    public func dataVersion() async throws -> Int {
        try await Self.dataVersion(of: writer)
    }

    private static func dataVersion(of writer: DatabaseQueue) async throws -> Int {
        let started = ContinuousClock.now
        defer { record("data_version", since: started) }
        return try await writer.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// A write like `write` whose commit does not wait for the disk to flush (SQLite's
    /// `synchronous = NORMAL` in WAL mode): it survives a crash of the panel and reaches the
    /// disk with the next synced commit or checkpoint; only an OS crash or a power cut before
    /// then can lose it. For the audit rows of looks at personal data (issue 36): the fsync of
    /// a synced commit cost 4-5 ms, most of a search page. Changes never come here.
    public func writeWithoutWaitingForDisk<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { Self.record("unsynced_write", since: started) }
        if let hold = jobHold, hold.holdsJobs, let name = DatabaseLane.current.jobName { await hold.hold(name) }
        return try await unsyncedWriter.write(updates)
    }

    /// Time from asking for a connection to the end of the transaction: the wait for a
    /// pooled reader or for the shared write lock is most of it when the panel is slow.
    private static func record(_ access: String, since started: ContinuousClock.Instant) {
        Metrics.Timer(label: "panel_database_access_seconds", dimensions: [("access", access)])
            .record(duration: ContinuousClock.now - started)
    }

    /// nil when the database answers; otherwise a short sentence, never a path or SQL.
    public func problem() async -> String? {
        let path = self.path
        // A file deleted or replaced under the panel still answers through the open
        // connections, but the backend no longer writes it.
        guard (try? await BlockingWork.run { FileManager.default.fileExists(atPath: path) }) == true else {
            return "the database file is gone"
        }
        do {
            _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1 FROM users LIMIT 1") }
            return nil
        } catch {
            return "the database does not answer"
        }
    }

    /// A read outside any transaction: for the test that shows the read-only connection
    /// cannot write even then.
    func readOutsideTransaction<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await reader.unsafeRead(value)
    }

    /// Opens an existing app database, checks that it is one, and migrates the panel's
    /// tables, off the cooperative pool: every step of it blocks.
    public static func open(path: String) async throws -> PanelDatabase {
        try await BlockingWork.run { try openBlocking(path: path) }
    }

    private static func openBlocking(path: String) throws -> PanelDatabase {
        try checkFile(at: path)

        var writerConfig = Configuration()
        writerConfig.label = "panel.writer"
        writerConfig.busyMode = .timeout(busyTimeout)
        writerConfig.prepareDatabase { db in
            // A statement over more than 64 KiB of pages (four of the app's 16 KiB pages) keeps
            // its statement journal in a temporary file: each claim, outcome batch and freeze
            // chunk wrote and threw away megabytes there, 120 KB a delivery sent. In memory,
            // a journal is at most the pages one statement of one short transaction changes.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            db.add(function: DeadTokens.sqlHash)
            for function in SendTime.functions { db.add(function: function) }
            db.add(function: CampaignDraw.sqlArm)
        }
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
            // No mmap_size: tried in issue 47, it saved the dashboard's count system time but no
            // wall time, and the load test nothing; and a file the backend shrinks under a
            // mapping (a checkpoint after a VACUUM) ends the process with SIGBUS, where a read
            // through a system call is an error SQLite returns.
            db.add(function: DeadTokens.sqlHash)
            db.add(function: TypedText.sqlFolded)
            for function in SendTime.functions { db.add(function: function) }
            db.add(function: CampaignDraw.sqlArm)
        }
        var unsyncedConfig = writerConfig
        unsyncedConfig.label = "panel.unsynced-writer"
        unsyncedConfig.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let unsyncedWriter = try DatabaseQueue(path: path, configuration: unsyncedConfig)
        let reader = try DatabasePool(path: path, configuration: readerConfig)
        var backgroundConfig = readerConfig
        backgroundConfig.label = "panel.background-reader"
        backgroundConfig.maximumReaderCount = 2
        let backgroundReader = try DatabasePool(path: path, configuration: backgroundConfig)
        var jobConfig = readerConfig
        jobConfig.label = "panel.job-reader"
        jobConfig.maximumReaderCount = 2
        let jobReader = try DatabasePool(path: path, configuration: jobConfig)
        var exportConfig = readerConfig
        exportConfig.label = "panel.export-reader"
        exportConfig.maximumReaderCount = 2
        let exportReader = try DatabasePool(path: path, configuration: exportConfig)
        // The watch holds the writer, not this value: a database that held a watch holding it
        // would never be released.
        let watch = DatabaseWatch(interval: .seconds(2)) { try await dataVersion(of: writer) }
        return PanelDatabase(
            reader: reader, backgroundReader: backgroundReader, jobReader: jobReader, exportReader: exportReader,
            writer: writer, unsyncedWriter: unsyncedWriter, path: path, watch: watch,
            groupedWrites: GroupedWrites { body in
                let started = ContinuousClock.now
                defer { record("grouped_write", since: started) }
                try await unsyncedWriter.write(body)
            })
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
