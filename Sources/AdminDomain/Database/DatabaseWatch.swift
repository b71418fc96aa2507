import Synchronization

/// Whether anything may have changed in the file, for jobs that would otherwise read their
/// tables on a timer: SQLite's `data_version` on the panel's writer connection, which moves
/// when any other connection commits (the backend, the CLI, the unsynced writer of looks).
/// However many jobs ask, it is read at most once an `interval`, so an idle panel touches
/// the file about once a second. The writer's own commits do not move it: those are
/// published on the campaigns' feed, which the callers watch too.
public final class DatabaseWatch: Sendable {
    private struct State {
        var version: Int?
        var readAt: ContinuousClock.Instant?
    }

    private let database: PanelDatabase
    private let interval: Duration
    private let state = Mutex(State())

    public init(database: PanelDatabase, interval: Duration = .seconds(1)) {
        self.database = database
        self.interval = interval
    }

    /// The version as last read, read again when that is older than the interval; nil when
    /// it cannot be read (the caller then reads as if it had moved).
    public func version() async -> Int? {
        let now = ContinuousClock.now
        let cached: Int?? = state.withLock { state in
            guard let at = state.readAt, now - at < interval else { return nil }
            return .some(state.version)
        }
        if let cached { return cached }
        let read = try? await database.dataVersion()
        state.withLock { state in
            state.version = read
            state.readAt = now
        }
        return read
    }
}
