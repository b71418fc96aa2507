import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// A background job in the application's service group: runs at start and then every
/// `interval` until graceful shutdown, which also cancels a run in progress. A failed run
/// is logged and tried again at the next interval; `maxConsecutiveFailures` in a row end
/// the job with an error, which ends the process with a non-zero code for a supervisor to
/// restart it. It never dies silently.
public struct PeriodicJob: Service {
    public let name: String
    let interval: Duration
    let health: ServiceHealth
    let logger: Logger
    let maxConsecutiveFailures: Int
    let work: @Sendable () async throws -> Void
    /// Runs once more after the last interval, at graceful shutdown (a final flush).
    let onStop: (@Sendable () async throws -> Void)?
    /// Asked before each run: no means nothing the job reads has changed, and the run is
    /// skipped (an idle panel then reads nothing on its behalf).
    let runOnlyIf: (@Sendable () async -> Bool)?

    public init(
        name: String, every interval: Duration, health: ServiceHealth, logger: Logger,
        maxConsecutiveFailures: Int = 3, onStop: (@Sendable () async throws -> Void)? = nil,
        runOnlyIf: (@Sendable () async -> Bool)? = nil, work: @escaping @Sendable () async throws -> Void
    ) {
        self.runOnlyIf = runOnlyIf
        self.name = name
        self.interval = interval
        self.health = health
        self.logger = logger
        self.maxConsecutiveFailures = max(1, maxConsecutiveFailures)
        self.work = work
        self.onStop = onStop
        health.register(name)
    }

    public func run() async throws {
        logger.info(
            "background job started",
            metadata: ["job": "\(name)", "interval_seconds": "\(interval.components.seconds)"])
        var failures = 0
        let clock = ContinuousClock()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let started = clock.now
            do {
                // After a failure the job runs again whatever the gate says: the gate counted
                // the failed run as done.
                let changed = await runOnlyIf?() ?? true
                if failures > 0 || changed {
                    try await cancelWhenGracefulShutdown { try await work() }
                }
                failures = 0
                health.record(name, at: Date(), duration: clock.now - started, error: nil)
                recordMetrics(outcome: "success", since: started)
            } catch is CancellationError {
                break
            } catch {
                failures += 1
                health.record(name, at: Date(), duration: clock.now - started, error: error)
                recordMetrics(outcome: "failure", since: started)
                logger.error(
                    "background job failed",
                    metadata: [
                        "job": "\(name)", "error": "\(error)", "failures_in_a_row": "\(failures)",
                    ])
                if failures >= maxConsecutiveFailures {
                    throw PeriodicJobError(job: name, failures: failures, last: error)
                }
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
        }
        if let onStop {
            do {
                try await onStop()
            } catch {
                logger.error("background job failed at shutdown", metadata: ["job": "\(name)", "error": "\(error)"])
            }
        }
        logger.info("background job stopped", metadata: ["job": "\(name)"])
    }

    private func recordMetrics(outcome: String, since started: ContinuousClock.Instant) {
        Counter(label: "panel_job_runs_total", dimensions: [("job", name), ("outcome", outcome)]).increment()
        Metrics.Timer(label: "panel_job_duration_seconds", dimensions: [("job", name)]).record(
            duration: ContinuousClock.now - started)
    }
}

public struct PeriodicJobError: Error, CustomStringConvertible {
    public let job: String
    public let failures: Int
    public let last: any Error

    public var description: String { "background job \(job) failed \(failures) times in a row; last: \(last)" }
}
