/// At most `limit` bodies at a time; the rest wait, without a deadline, and are let in in the
/// order they came. The panel's one semaphore: scrypt hashes (so a flood of sign-ins queues
/// instead of taking every core and 128 MiB a hash) and the requests in flight to a push
/// provider (so they wait here rather than in async-http-client's pool, where a wait longer
/// than the connect timeout fails a send that was never tried).
public actor AsyncSemaphore {
    private let limit: Int
    private var running = 0
    /// Waiters from `next` on; the array is compacted now and then instead of shifted per
    /// release, which costs a copy of every waiter when a million sends queue.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var next = 0

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a permit is free and gives the permit back when it returns or throws.
    public nonisolated func run<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        guard next < waiters.count else {
            running -= 1
            return
        }
        // The permit passes straight to the longest waiter.
        let waiter = waiters[next]
        next += 1
        if next > 1024, next * 2 > waiters.count {
            waiters.removeFirst(next)
            next = 0
        }
        waiter.resume()
    }
}
