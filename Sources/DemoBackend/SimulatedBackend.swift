import AdminDomain
import Foundation
import GRDB
import Logging
import ServiceLifecycle

/// The demo's stand-in for the app's backend, a service of the demo's group: every `interval`
/// it schedules new reminders and sends those falling due (`ReminderBackend`) and, once a
/// minute, moves a few users across the demo journeys' triggers (`JourneyMover`), and lets
/// users go on using the app at the seeded pace (`EverydayUse`), in one
/// small write transaction through GRDB's async access, off the cooperative threads. It runs with
/// the device simulator or real push credentials alike: it plays the backend, not a provider.
/// Only the demo runs it: the panel itself never writes the app's tables.
public final class SimulatedBackend: Service, Sendable {
    let databasePath: String
    let stallReminders: Bool
    let interval: Duration
    let logger: Logger
    private static let opening = DispatchQueue(label: "simulated-backend.open")

    public init(
        databasePath: String, stallReminders: Bool, interval: Duration = .seconds(2),
        logger: Logger = Logger(label: "simulated-backend")
    ) {
        self.databasePath = databasePath
        self.stallReminders = stallReminders
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        // Cancelled at graceful shutdown, so the sleep between ticks does not hold the stop.
        try? await cancelWhenGracefulShutdown { [self] in try await loop() }
    }

    private func loop() async throws {
        let path = databasePath
        let queue: DatabaseQueue
        do {
            // Opening reads the file: off the cooperative threads too, and not in `BlockingWork`,
            // whose threads are as many as the cores: in the tests' whole run the opening
            // waited there 5 to 20 s behind password hashes. A serial queue of its own is given
            // a thread of its own by Dispatch.
            queue = try await withCheckedThrowingContinuation { continuation in
                Self.opening.async {
                    continuation.resume(
                        with: Result {
                            var configuration = Configuration()
                            configuration.busyMode = .timeout(5)
                            return try DatabaseQueue(path: path, configuration: configuration)
                        })
                }
            }
        } catch {
            logger.error(
                "the simulated backend could not open the demo database; no reminder will be sent",
                metadata: ["error": "\(error)"])
            // A service that returns would stop the whole group: wait for the shutdown instead.
            while !Task.isCancelled { try await Task.sleep(for: .seconds(3_600)) }
            return
        }
        let seed = UInt64.random(in: 0...UInt64.max)
        var backend = ReminderBackend(stalled: stallReminders, seed: seed)
        var mover = JourneyMover(seed: seed &+ 2)
        let started = Int64(Date().timeIntervalSince1970)
        let pace = (try? await queue.read { db in try EverydayUse.pace(now: started, in: db) }) ?? 0
        var everyday = EverydayUse(seed: seed &+ 3, pace: pace)
        while !Task.isCancelled {
            do {
                (backend, mover, everyday) = try await queue.write { [backend, mover, everyday] db in
                    var (next, nextMover, nextEveryday) = (backend, mover, everyday)
                    let now = Int64(Date().timeIntervalSince1970.rounded(.down))
                    try next.tick(now: now, in: db)
                    try nextMover.tick(now: now, in: db)
                    try nextEveryday.tick(now: now, in: db)
                    return (next, nextMover, nextEveryday)
                }
            } catch is CancellationError {
                return
            } catch {
                // A busy or odd database loses one tick, never the loop.
                logger.warning("the simulated backend skipped a tick", metadata: ["error": "\(error)"])
            }
            try await Task.sleep(for: interval)
        }
    }
}
