/// At most `limit` requests in flight to a provider (`PushHTTPClients` keeps as many
/// connections); the rest wait here, without a deadline, rather than in async-http-client's
/// pool, where a wait longer than the connect timeout fails a send that was never tried.
actor InFlightLimit {
    private let limit: Int
    private var running = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var next = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        guard next < waiters.count else {
            running -= 1
            return
        }
        // The slot passes straight to the longest waiter.
        let waiter = waiters[next]
        next += 1
        if next > 1024, next * 2 > waiters.count {
            waiters.removeFirst(next)
            next = 0
        }
        waiter.resume()
    }

    func run<T: Sendable>(_ body: () async -> T) async -> T {
        await acquire()
        let result = await body()
        release()
        return result
    }
}
