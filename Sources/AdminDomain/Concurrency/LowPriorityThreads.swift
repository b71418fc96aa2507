import Dispatch
import Foundation
import Synchronization

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
    /// report): they never wait behind a background count. Nice 19 but not SCHED_IDLE: a person
    /// waits for these, and under a load that never pauses an idle thread got no slice at all
    /// (an export in the busy test suite did not finish in three minutes).
    public static let requests = LowPriorityThreads(count: 2, idle: false)

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// Jobs are handed over from here, so async code never waits on the lock itself.
    private let intake = DispatchQueue(label: "panel.low-priority.intake")

    /// `idle`: SCHED_IDLE as well as the niceness, for work nobody waits on.
    init(count: Int, niceness: Int32 = 19, idle: Bool = true) {
        for index in 0..<count {
            let thread = Thread { [self] in
                #if os(Linux)
                    // Per thread on Linux: PRIO_PROCESS and 0 name the calling thread, not the process.
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                    // SCHED_IDLE (5, a GNU constant Swift does not import): below even nice 19,
                    // which still took slices long enough to double a first search's time. A
                    // job here may wait long under a load that never pauses: keep each short.
                    if idle {
                        var parameters = sched_param()
                        _ = sched_setscheduler(0, 5, &parameters)
                    }
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

    /// Runs `body` (a read, whose result alone matters) on one of the threads; a cancelled
    /// caller is answered at once with `CancellationError`, and the body's result, when it
    /// comes, is dropped (one not started yet is skipped). Under a load that never pauses, a
    /// read here gets almost no CPU: a shutdown must not wait for it (it took the whole
    /// 10 s deadline with the cores busy).
    public func runAbandoningOnCancel<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let once = ResumeOnce<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard once.set(continuation) else { return }
                let job: @Sendable () -> Void = {
                    guard !once.isDone else { return }
                    once.resume(with: Result { try body() })
                }
                intake.async { [self] in
                    condition.lock()
                    jobs.append(job)
                    condition.signal()
                    condition.unlock()
                }
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
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

/// A continuation resumed once, by the body or by a cancellation, whichever is first.
private final class ResumeOnce<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var done = false
    }
    private let state = Mutex(State())

    var isDone: Bool { state.withLock { $0.done } }

    /// Keeps `continuation`; false (and it resumed with `CancellationError`) if cancelled before.
    func set(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if state.done { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    func resume(with result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            if state.done { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
