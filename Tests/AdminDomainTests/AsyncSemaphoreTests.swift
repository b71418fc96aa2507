import ConcurrencyLimits
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct AsyncSemaphores {
    actor Gauge {
        private(set) var current = 0, peak = 0
        func enter() {
            current += 1
            peak = max(peak, current)
        }
        func leave() { current -= 1 }
    }

    /// Async bodies that suspend while they hold a permit: never more than the limit at once,
    /// and every one of them runs.
    @Test func asyncBodiesNeverExceedTheLimit() async throws {
        let semaphore = AsyncSemaphore(limit: 3)
        let gauge = Gauge()
        let ran = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await semaphore.run {
                        await gauge.enter()
                        try await Task.sleep(for: .milliseconds(5))
                        await gauge.leave()
                        return 1
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(ran == 40)
        #expect(await gauge.peak == 3)
    }

    struct Refused: Error {}

    /// A body that throws gives its permit back: with a limit of one, the next run would
    /// otherwise wait for ever. A wait on a continuation cannot be cancelled, so the next run
    /// is left in a task of its own and watched with a deadline.
    @Test func aThrowingBodyGivesItsPermitBack() async throws {
        let semaphore = AsyncSemaphore(limit: 1)
        await #expect(throws: Refused.self) { try await semaphore.run { () throws(Refused) in throw Refused() } }
        let ran = Mutex(false)
        Task { await semaphore.run { ran.withLock { $0 = true } } }
        #expect(try await eventually(within: .seconds(10)) { ran.withLock { $0 } }, "the next run got the permit")
    }
}
