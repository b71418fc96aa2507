import Foundation
import Synchronization

/// Who a database access is for, carried by the task: a request (the default), a background
/// job, or a CSV export. `PanelDatabase` reads each lane on connections of its own, so a
/// request never queues behind a job or an export for a pooled reader (issue 46): the lane
/// is set where the work starts (each service of the group, each count a refresher runs,
/// each export's body), never by the code that reads, so no read can forget it.
public enum DatabaseLane: Sendable, Equatable {
    case request
    /// A service of the group or work it started; its name, for the log and the test's hold.
    case job(String)
    /// A CSV download being written: read at the lowest priority, on its own connections.
    case export

    @TaskLocal public static var current: DatabaseLane = .request

    /// Runs `body` as background work named `name`, unless it already is some job's.
    public static func asJob<T: Sendable>(_ name: String, _ body: @Sendable () async throws -> T) async rethrows -> T {
        if case .job = current { return try await body() }
        return try await $current.withValue(.job(name)) { try await body() }
    }

    /// The job's name, nil for a request or an export.
    public var jobName: String? {
        if case .job(let name) = self { return name }
        return nil
    }
}

/// For tests only: holds every background job (and, when asked, every export) at its next database access, inside the read
/// (its connection taken) or before the write (no lock taken), until released. The test of
/// issue 46 asks every page while each job is held mid-work; production never sets one.
public final class JobHold: Sendable {
    private struct State {
        var engaged = true
        var held: [String: Int] = [:]
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let condition = NSCondition()
    /// Holds the background jobs (`DatabaseLane.job`, by name).
    public let holdsJobs: Bool
    /// Holds CSV exports (`DatabaseLane.export`, named "export"), inside their reads.
    public let holdsExports: Bool

    public init(jobs: Bool = true, exports: Bool = false) {
        holdsJobs = jobs
        holdsExports = exports
    }

    /// The jobs waiting here now.
    public var held: Set<String> {
        state.withLock { Set($0.held.filter { $0.value > 0 }.keys) }
    }

    /// Lets every held job go on, and every later access through.
    public func release() {
        let waiters = state.withLock { state in
            state.engaged = false
            defer { state.waiters = [] }
            return state.waiters
        }
        condition.lock()
        condition.broadcast()
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }

    private func enter(_ name: String) -> Bool {
        state.withLock { state in
            guard state.engaged else { return false }
            state.held[name, default: 0] += 1
            return true
        }
    }

    private func leave(_ name: String) {
        state.withLock { $0.held[name, default: 1] -= 1 }
    }

    private var engaged: Bool { state.withLock { $0.engaged } }

    /// Blocks the calling thread (a database queue's, never a cooperative one) while engaged.
    func holdBlocking(_ name: String) {
        guard enter(name) else { return }
        condition.lock()
        while engaged { condition.wait() }
        condition.unlock()
        leave(name)
    }

    /// Suspends the calling task while engaged.
    func hold(_ name: String) async {
        guard enter(name) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state in
                guard state.engaged else { return false }
                state.waiters.append(continuation)
                return true
            }
            if !waiting { continuation.resume() }
        }
        leave(name)
    }
}
