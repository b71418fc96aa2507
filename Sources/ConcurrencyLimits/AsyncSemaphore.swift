import Synchronization

/// At most `limit` bodies at a time; the rest wait, without a deadline, and are let in in the
/// order they came. The panel's one semaphore: scrypt hashes (so a flood of sign-ins queues
/// instead of taking every core and 128 MiB a hash) and the requests in flight to a push
/// provider (so they wait here rather than in async-http-client's pool, where a wait longer
/// than the connect timeout fails a send that was never tried).
///
/// A lock, not an actor: every push passes here twice, and an actor's two hops a push were
/// a cost of their own at 10,000 pushes a second. The lock is held for a few instructions,
/// never across a suspension, and a waiter is resumed after it is let go.
public final class AsyncSemaphore: Sendable {
    private struct State {
        var running = 0
        /// Waiters from `next` on; the array is compacted now and then instead of shifted per
        /// release, which costs a copy of every waiter when a million sends queue.
        var waiters: [CheckedContinuation<Void, Never>] = []
        var next = 0

        var hasWaiters: Bool { next < waiters.count }
    }

    private let limit: Int
    private let state = Mutex(State())

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a permit is free and gives the permit back when it returns or throws.
    public func run<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        let limit = self.limit
        let admitted = state.withLock { state in
            guard state.running < limit, !state.hasWaiters else { return false }
            state.running += 1
            return true
        }
        if admitted { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            // A permit may have come back since the look above.
            let admitted = state.withLock { state in
                guard state.running < limit, !state.hasWaiters else {
                    state.waiters.append(waiter)
                    return false
                }
                state.running += 1
                return true
            }
            if admitted { waiter.resume() }
        }
    }

    private func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.hasWaiters else {
                state.running -= 1
                return nil
            }
            // The permit passes straight to the longest waiter.
            let waiter = state.waiters[state.next]
            state.next += 1
            if state.next > 1024, state.next * 2 > state.waiters.count {
                state.waiters.removeFirst(state.next)
                state.next = 0
            }
            return waiter
        }
        waiter?.resume()
    }
}
