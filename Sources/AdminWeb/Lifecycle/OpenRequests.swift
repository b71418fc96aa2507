import Synchronization

/// The requests whose handlers have not returned yet, so that a shutdown that has to give
/// up on them can say which they were.
///
/// A mutex, not an actor: the shutdown watchdog reads it from a Dispatch queue precisely
/// when the cooperative threads may all be stuck. It is held for a dictionary insert or
/// removal only, never across a suspension or any I/O.
public final class OpenRequests: Sendable {
    public struct Entry: Sendable, Equatable {
        public let requestID: String
        public let method: String
        /// The path without its query: queries carry search text and emails.
        public let path: String
        public let started: ContinuousClock.Instant
    }

    private let state = Mutex<(next: Int, entries: [Int: Entry])>((0, [:]))

    public init() {}

    func begin(requestID: String, method: String, path: String) -> Int {
        let entry = Entry(requestID: requestID, method: method, path: path, started: .now)
        return state.withLock { state in
            state.next += 1
            state.entries[state.next] = entry
            return state.next
        }
    }

    func end(_ key: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// How many requests have been registered since the start, finished or not.
    public var registered: Int { state.withLock { $0.next } }

    /// Oldest first.
    public var current: [Entry] {
        state.withLock { Array($0.entries.values) }.sorted { $0.started < $1.started }
    }
}
