import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import AdminWeb

/// Work nobody awaits runs in the service group: a graceful shutdown cancels what is running
/// and waits for it to end before the group returns.
@Suite(.timeLimit(.minutes(20))) struct BackgroundWorkTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func aGracefulShutdownCancelsTheRunningJobsAndWaitsForThem() async throws {
        let work = BackgroundWork()
        let log = Log()
        // Submitted before the group starts: it waits for the service to run.
        work.submit {
            log.add("started")
            do {
                try await Task.sleep(for: .seconds(30))
                log.add("slept to the end")
            } catch {
                // A job that takes a moment to wind down is waited for.
                try? await Task.sleep(for: .milliseconds(100))
                log.add("cancelled")
            }
        }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: [work], gracefulShutdownSignals: [], logger: logger))
        async let ran: Void = group.run()
        // No deadline but the suite's: a loaded machine may take seconds to start it.
        while log.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(log.all == ["started"], "the job submitted before the start ran")
        await group.triggerGracefulShutdown()
        try await ran
        #expect(log.all == ["started", "cancelled"], "the group returned only after the cancelled job ended")
    }

    @Test func aJobSubmittedAfterAStopRunsAtTheNextRun() async throws {
        let work = BackgroundWork()
        let log = Log()
        let first = Task { await work.run() }
        first.cancel()
        await first.value
        work.submit { log.add("ran") }
        let second = Task { await work.run() }
        let deadline = ContinuousClock.now + .seconds(10)
        while log.all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        second.cancel()
        await second.value
        #expect(log.all == ["ran"])
    }
}
