import Synchronization

/// Whether anything may have changed in the file, for jobs that would otherwise read their
/// tables on a timer: SQLite's `data_version` on the panel's writer connection, which moves
/// when any other connection commits (the backend, the CLI, the unsynced writer of looks).
/// The writer's own commits do not move it: those are published on the campaigns' feed,
/// which the callers watch too.
///
/// However many jobs ask, and however their timers line up, it is read at most once an
/// `interval`: the first caller to find the last read too old claims the next one before
/// reading, and whoever asks meanwhile gets the version already known.
public final class DatabaseWatch: Sendable {
    private struct State {
        var version: Int?
        var claimedAt: ContinuousClock.Instant?
    }

    public let interval: Duration
    private let read: @Sendable () async throws -> Int
    private let state = Mutex(State())

    /// The database's own watch is `database.watch`; a watch of its own is for tests that
    /// want another interval.
    public convenience init(database: PanelDatabase, interval: Duration = .seconds(2)) {
        self.init(interval: interval) { try await database.dataVersion() }
    }

    init(interval: Duration, read: @escaping @Sendable () async throws -> Int) {
        self.interval = interval
        self.read = read
    }

    /// The version as last read, read again when that read began an `interval` ago or more;
    /// nil when it cannot be read (the caller then acts as if it had moved).
    public func version() async -> Int? {
        let now = ContinuousClock.now
        let known: Int?? = state.withLock { state in
            if let at = state.claimedAt, now - at < interval { return .some(state.version) }
            state.claimedAt = now
            return nil
        }
        if let known { return known }
        let version = try? await read()
        state.withLock { $0.version = version }
        return version
    }
}
