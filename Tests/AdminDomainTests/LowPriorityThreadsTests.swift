import AdminDomain
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The dashboard's count reads on threads the kernel runs last (SCHED_IDLE, and nice 19
/// where that is refused), so that requests get the cores first.
@Suite(.timeLimit(.minutes(20))) struct LowPriorityThreadsRunLow {
    @Test func workRunsAtSchedIdleAndNiceNineteen() async throws {
        #if os(Linux)
            let (niceness, policy) = try await LowPriorityThreads.shared.run {
                (LowPriorityThreads.currentNiceness(), sched_getscheduler(0))
            }
            #expect(niceness == 19)
            // SCHED_IDLE is 5 in Linux's <sched.h>.
            #expect(policy == 5)
        #endif
    }

    @Test func aThrownErrorReachesTheCaller() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await LowPriorityThreads.shared.run { throw Refused() } }
    }

    /// A read that cannot go on (here: it waits for the test) does not hold a cancelled caller,
    /// as a shutdown cancels the jobs: the caller gets CancellationError while the read still
    /// runs, and the read's later result is dropped.
    @Test func aCancelledCallerIsAnsweredWithoutWaitingForTheRead() async throws {
        let gate = DispatchSemaphore(value: 0)
        let waiting = Task {
            try await LowPriorityThreads.shared.runAbandoningOnCancel { () -> Int in
                gate.wait()
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        let outcome = await waiting.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        gate.signal()
        // The thread is free again: the next read runs.
        #expect(try await LowPriorityThreads.shared.runAbandoningOnCancel { 2 } == 2)
    }
}
