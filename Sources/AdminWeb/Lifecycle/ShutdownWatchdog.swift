import Dispatch
import Foundation
import Logging
import Synchronization

/// The last word on SIGTERM and SIGINT: the service group drains the server gracefully,
/// and if that has not finished by the deadline (a handler stuck, or every cooperative
/// thread blocked so that nothing in Swift concurrency can run at all), this ends the
/// process anyway, after logging the requests still open.
///
/// Everything here runs on its own Dispatch queue, never on the cooperative pool.
public final class ShutdownWatchdog: Sendable {
    private let deadline: Duration
    private let openRequests: OpenRequests
    private let logger: Logger
    private let onDeadline: @Sendable ([OpenRequests.Entry]) -> Void
    private let queue = DispatchQueue(label: "panel.shutdown-watchdog")
    /// The signal sources, kept alive; and whether the countdown has begun.
    private let state = Mutex<(sources: [any DispatchSourceSignal], started: Bool)>(([], false))

    /// `onDeadline` is for tests; the panel's own ends the process with exit code 0, since
    /// stopping was asked for.
    public init(
        deadline: Duration, openRequests: OpenRequests, logger: Logger,
        onDeadline: @escaping @Sendable ([OpenRequests.Entry]) -> Void = { _ in ShutdownWatchdog.exitNow() }
    ) {
        self.deadline = deadline
        self.openRequests = openRequests
        self.logger = logger
        self.onDeadline = onDeadline
    }

    /// Watches the signals beside the service group, which has its own handlers for them.
    public func arm(signals: [Int32] = [SIGTERM, SIGINT]) {
        for signalNumber in signals {
            // The default action would end the process before anyone drains it.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [weak self] in self?.startCountdown(signal: signalNumber) }
            source.resume()
            state.withLock { $0.sources.append(source) }
        }
    }

    /// What a signal does; tests call it directly.
    public func startCountdown(signal: Int32) {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        queue.async { [self] in
            logger.info(
                "stopping: no new connections, waiting for requests in flight",
                metadata: [
                    "signal": "\(signal)", "deadline_seconds": "\(deadline.components.seconds)",
                    "open_requests": "\(openRequests.current.count)",
                ])
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(deadline.nanoseconds))) { [self] in
                let open = openRequests.current
                let now = ContinuousClock.now
                logger.error(
                    "shutdown deadline passed: ending the process with requests still open",
                    metadata: [
                        "open_requests": .array(
                            open.map { entry in
                                let seconds = String(format: "%.1f", Double((now - entry.started).nanoseconds) / 1e9)
                                return "\(entry.requestID) \(entry.method) \(entry.path) open \(seconds) s"
                            })
                    ])
                onDeadline(open)
            }
        }
    }

    public static func exitNow() -> Never {
        // _exit, not exit: atexit handlers could wait for a lock a stuck thread holds.
        fflush(nil)
        _exit(0)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
