import ServiceLifecycle
import Synchronization

/// Work started by a request or a callback that nobody awaits (a full dashboard count, an
/// audience preview, a journey's dry run, a live page's reads on change): each job runs as a
/// child task of this service, in the panel's service group, so that a graceful shutdown
/// cancels what is running and waits for it instead of leaving it to the process's end.
///
/// A job submitted while the service is not running (before the group starts, after it
/// stopped) waits for its next run: tests run one panel's group several times.
public final class BackgroundWork: Service, Sendable {
    public typealias Job = @Sendable () async -> Void

    private struct State {
        var waiting: [Job] = []
        var taker: CheckedContinuation<[Job], Never>?
        var stopping = false
    }

    private let state = Mutex(State())

    public init() {}

    public func submit(_ job: @escaping Job) {
        let taker = state.withLock { state in
            state.waiting.append(job)
            return take(&state)
        }
        if let taker { taker.continuation.resume(returning: taker.jobs) }
    }

    public func run() async {
        state.withLock { $0.stopping = false }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while true {
                    let jobs = await next()
                    if jobs.isEmpty { break }
                    for job in jobs { group.addTask { await job() } }
                }
                // Shutting down: what runs is cancelled, and the group waits for it to end.
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.stop()
        }
    }

    /// The jobs waiting, once there are any; none when the service stops.
    private func next() async -> [Job] {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Job], Never>) in
                let now = state.withLock { state -> [Job]? in
                    if state.stopping || Task.isCancelled { return [] }
                    if !state.waiting.isEmpty {
                        defer { state.waiting = [] }
                        return state.waiting
                    }
                    state.taker = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            stop()
        }
    }

    private func stop() {
        let taker = state.withLock { state in
            state.stopping = true
            defer { state.taker = nil }
            return state.taker
        }
        taker?.resume(returning: [])
    }

    /// The waiting jobs for a taker waiting for them, taken from `state`.
    private func take(_ state: inout State) -> (continuation: CheckedContinuation<[Job], Never>, jobs: [Job])? {
        guard let taker = state.taker else { return nil }
        state.taker = nil
        defer { state.waiting = [] }
        return (taker, state.waiting)
    }
}
