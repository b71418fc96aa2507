import Foundation
import GRDB
import Logging

/// Keeps the dashboard's snapshot: a full count at start, every `fullEvery` and when an
/// admin asks, and in between incremental refreshes that read only the rows added since.
/// One refresh runs at a time (a second caller joins it); a failed one keeps the last good
/// snapshot and is remembered for admins to see.
public actor DashboardRefresher {
    public struct Failure: Sendable, Equatable {
        public let message: String
        public let at: Date
    }

    public struct Timing: Sendable, Equatable {
        public var full: Duration?
        public var incremental: Duration?
    }

    private let database: PanelDatabase
    private let fullEvery: TimeInterval
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var tally: DashboardTally?
    private var current: DashboardSnapshot?
    private var running: (full: Bool, urgent: Bool, generation: Int, task: Task<Void, Never>)?
    /// Moves on with each run: a run replaced by a more urgent one changes nothing when it ends.
    private var generation = 0
    public private(set) var lastFailure: Failure?
    public private(set) var timing = Timing()
    /// Refreshes finished so far, full or not, failed or not (two callers at once make one).
    public private(set) var refreshCount = 0

    public init(
        database: PanelDatabase, fullEvery: TimeInterval = 900, logger: Logger = Logger(label: "dashboard"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.fullEvery = fullEvery
        self.logger = logger
        self.now = now
    }

    /// The latest snapshot; waits only when there is none yet, for the first count.
    public func snapshot() async throws -> DashboardSnapshot {
        if let current { return current }
        await refresh(waitedOn: true)
        if let current { return current }
        throw DashboardUnavailable(reason: lastFailure?.message ?? "the first count did not finish")
    }

    /// A refresh is under way.
    public var isRefreshing: Bool { running != nil }

    /// The latest snapshot without waiting: nil before the first count is done.
    public func latest() -> DashboardSnapshot? {
        current
    }

    /// Refreshes now, or joins the refresh under way. `full` forces a full count (after the
    /// one under way, when that one reads only new rows).
    ///
    /// `waitedOn`: someone waits for this one (a page before the first count, an admin who
    /// asked for a count, the command line), so it reads at the requests' priority instead
    /// of yielding to them. A run under way that yields is replaced, not joined: a read of
    /// it under way cannot be lifted, and under a load that never pauses it could wait long.
    public func refresh(full: Bool = false, waitedOn: Bool = false) async {
        while let running {
            if waitedOn, !running.urgent {
                running.task.cancel()
                self.running = nil
                // It may have read part of the tally in place: the next run counts in full.
                tally = nil
                break
            }
            await running.task.value
            if !full || running.full { return }
        }
        let isFull = full || needsFull()
        generation += 1
        let mine = generation
        // A count is background work whoever asked: it reads on the jobs' connections.
        let task = Task {
            await DatabaseLane.asJob("dashboard-count") {
                await self.run(full: isFull, urgent: waitedOn, generation: mine)
            }
        }
        running = (isFull, waitedOn, mine, task)
        await task.value
    }

    private func needsFull() -> Bool {
        guard let tally else { return true }
        let at = now()
        return at.timeIntervalSince(tally.countedAt) >= fullEvery
            || !tally.window.covers(
                today: TimestampBytes.day(ofSeconds: Int64(at.timeIntervalSince1970.rounded(.down))))
    }

    private func run(full: Bool, urgent: Bool, generation mine: Int) async {
        defer {
            if generation == mine {
                running = nil
                refreshCount += 1
            }
        }
        let at = now()
        // A count nobody waits for reads at the lowest priority, in reads a tenth as long,
        // so that one under way when a page starts to wait holds little.
        let scan = DashboardScan(
            database: database, now: at, rowsPerRead: urgent ? 50_000 : 5_000, atLowPriority: !urgent)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let counted: DashboardTally
            if full || tally == nil {
                // The old tally goes first: two of them at once would double the memory (a
                // replaced run's may live on until its read under way ends).
                tally = nil
                counted = try await scan.full()
            } else if let tally {
                try await scan.incremental(tally)
                counted = tally
            } else {
                return
            }
            // Deriving walks every user's columns: off the cooperative threads, and behind
            // requests unless one waits for it.
            let derive: @Sendable () -> DashboardSnapshot = { DashboardSnapshot(tally: counted, now: at) }
            let snapshot = urgent ? try await BlockingWork.run(derive) : try await LowPriorityThreads.shared.run(derive)
            // Replaced by a more urgent run meanwhile: that one's figures count.
            guard generation == mine else { return }
            tally = counted
            current = snapshot
            lastFailure = nil
            let took = clock.now - started
            if full { timing.full = took } else { timing.incremental = took }
            logger.info("dashboard refreshed", metadata: ["full": "\(full)", "seconds": "\(took)"])
        } catch {
            guard generation == mine else { return }
            // A half-read incremental tally cannot be trusted: the next refresh counts in full.
            tally = nil
            lastFailure = Failure(message: DashboardUnavailable.describe(error), at: at)
            logger.error("dashboard refresh failed", metadata: ["error": "\(error)"])
        }
    }
}

public struct DashboardUnavailable: Error, CustomStringConvertible {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "The dashboard's figures could not be counted: \(reason)." }

    /// A sentence for admins: SQLite's own message (never a path or SQL).
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "database error \(error.resultCode)" }
        return String(describing: type(of: error))
    }
}
