import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Two threads of their own at the lowest priority (nice 19), for long reads nobody waits on
/// (the dashboard's full count): when a request wants a core, the kernel gives it the core.
/// On two cores, a count on the pool's threads took both and a first look at a search
/// prefix took four times as long until it ended. Dispatch's own threads cannot be used:
/// their priority cannot be lowered for one job and raised back without privilege.
public final class LowPriorityThreads: @unchecked Sendable {
    public static let shared = LowPriorityThreads(count: 2)

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// Jobs are handed over from here, so async code never waits on the lock itself.
    private let intake = DispatchQueue(label: "panel.low-priority.intake")

    init(count: Int, niceness: Int32 = 19) {
        for index in 0..<count {
            let thread = Thread { [self] in
                #if os(Linux)
                // Per thread on Linux: PRIO_PROCESS and 0 name the calling thread, not the process.
                // Not SCHED_IDLE: that starved a count for good under a load that never
                // paused, and a page waiting for it timed out.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                #endif
                work()
            }
            thread.name = "panel.low-priority-\(index)"
            thread.start()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Runs `body` on one of the threads; the caller's task is suspended meanwhile.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable () -> Void = { continuation.resume(with: Result { try body() }) }
            intake.async { [self] in
                condition.lock()
                jobs.append(job)
                condition.signal()
                condition.unlock()
            }
        }
    }

    /// This thread's niceness, for the test that checks the threads really run low.
    public static func currentNiceness() -> Int32 {
        #if os(Linux)
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        return 0
        #endif
    }
}
