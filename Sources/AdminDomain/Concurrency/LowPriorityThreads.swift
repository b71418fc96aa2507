import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Two threads of their own at the lowest priority (SCHED_IDLE, and nice 19 where that is
/// refused), for long reads nobody waits on (the dashboard's full count): when a request
/// wants a core, the kernel gives it the core.
/// On two cores, a count on the pool's threads took both and a first look at a search
/// prefix took four times as long until it ended. Dispatch's own threads cannot be used:
/// their priority cannot be lowered for one job and raised back without privilege.
public final class LowPriorityThreads: @unchecked Sendable {
    public static let shared = LowPriorityThreads(count: 2)
    /// Two more for the low-priority reads of requests (CSV exports being written, a journey's
    /// report): they never wait behind a background count, and never take a core a request wants.
    public static let requests = LowPriorityThreads(count: 2)

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// Jobs are handed over from here, so async code never waits on the lock itself.
    private let intake = DispatchQueue(label: "panel.low-priority.intake")

    init(count: Int, niceness: Int32 = 19) {
        for index in 0..<count {
            let thread = Thread { [self] in
                #if os(Linux)
                    // Per thread on Linux: PRIO_PROCESS and 0 name the calling thread, not the process.
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                    // SCHED_IDLE (5, a GNU constant Swift does not import): below even nice 19,
                    // which still took slices long enough to double a first search's time. A
                    // job here may wait long under a load that never pauses: keep each short.
                    var parameters = sched_param()
                    _ = sched_setscheduler(0, 5, &parameters)
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
