/// Runs blocking work on a Dispatch queue, at most `limit` at a time, so that expensive
/// hashes never run on the server's event loops and a flood of logins queues instead of
/// taking every core and 128 MiB per hash.
public actor ConcurrencyLimiter {
    private let limit: Int
    private var running = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await BlockingWork.run(work)
    }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            running -= 1
        } else {
            // The permit passes straight to the next waiter.
            waiters.removeFirst().resume()
        }
    }
}
