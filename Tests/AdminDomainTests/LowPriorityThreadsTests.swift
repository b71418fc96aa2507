import AdminDomain
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The dashboard's count reads on threads the kernel runs last (SCHED_IDLE, and nice 19
/// where that is refused), so that requests get the cores first.
@Suite(.timeLimit(.minutes(10))) struct LowPriorityThreadsRunLow {
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
}
