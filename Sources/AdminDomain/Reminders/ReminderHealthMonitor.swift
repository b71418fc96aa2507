import Foundation
import Logging
import Synchronization

/// Keeps the reminder health snapshot: a full read of the last 30 days of reminders along the
/// `reminders_scheduled` index at start and every `fullEvery`; in between, each refresh reads
/// again the reminders due in the last 2 hours, where most rows still change in place
/// (scheduled to sent), and every 5 minutes those of the last 26 hours (late sends, opens).
/// One refresh runs at a time; a failed one keeps the last good snapshot.
public actor ReminderHealthMonitor {
    public nonisolated let options: ReminderAlertOptions
    private let database: PanelDatabase
    private let fullEvery: TimeInterval
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let box = ReminderStoreBox()
    private var lastFull: Date?
    private var alertSince: [ReminderAlert.Kind: Date] = [:]
    private var running: (task: Task<Void, any Error>, full: Bool, generation: Int)?
    private var generation = 0
    /// Read by every page (the banner) without a hop onto the actor.
    private nonisolated let published = Mutex<ReminderHealthSnapshot?>(nil)

    /// Read again at each refresh.
    public static let recentWindow: Int64 = 2 * 3_600
    /// Read again every `dayEvery`.
    public static let dayWindow: Int64 = 26 * 3_600
    public static let dayEvery: TimeInterval = 300
    private var lastDay: Date?
    /// The largest reminder id seen, and when a refresh first saw it grow.
    private var lastReminderID: Int64?
    private var remindersGrewAt: Date?
    private var platforms = DevicePlatforms()

    public init(
        database: PanelDatabase, options: ReminderAlertOptions = .init(), fullEvery: TimeInterval = 3_600,
        logger: Logger = Logger(label: "reminder-health"), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.options = options
        self.fullEvery = fullEvery
        self.logger = logger
        self.now = now
    }

    /// The latest snapshot without waiting: nil before the first count is done.
    public nonisolated func latest() -> ReminderHealthSnapshot? {
        published.withLock { $0 }
    }

    /// The latest snapshot; waits only when there is none yet, for the first count.
    public func snapshot() async throws -> ReminderHealthSnapshot {
        if let current = latest() { return current }
        try await refresh()
        guard let current = latest() else { throw ReminderHealthUnavailable() }
        return current
    }

    /// Refreshes now, or joins the refresh under way; `full` re-reads the whole 30 days (after
    /// the one under way, unless that one is full).
    public func refresh(full: Bool = false) async throws {
        while let running {
            defer { if self.running?.generation == running.generation { self.running = nil } }
            try await running.task.value
            if !full || running.full { return }
        }
        generation += 1
        let mine = generation
        // Background work whoever asked: it reads on the jobs' connections.
        let task = Task { try await DatabaseLane.asJob("reminder-count") { try await self.run(full: full) } }
        running = (task, full, mine)
        defer { if running?.generation == mine { running = nil } }
        try await task.value
    }

    private func run(full: Bool) async throws {
        let at = now()
        let clock = ContinuousClock()
        let started = clock.now
        let nowSeconds = Int64(at.timeIntervalSince1970.rounded(.down))
        let isFull = full || lastFull.map { at.timeIntervalSince($0) >= fullEvery || at < $0 } ?? true
        let isDay = isFull || lastDay.map { at.timeIntervalSince($0) >= Self.dayEvery || at < $0 } ?? true
        let from = nowSeconds - (isFull ? ReminderRange.month.seconds : isDay ? Self.dayWindow : Self.recentWindow)
        var platforms = isFull ? DevicePlatforms() : self.platforms
        try await platforms.readNew(from: database)
        self.platforms = platforms
        let read = try await ReminderScan(database: database).read(after: from, until: nowSeconds, full: isFull)
        let readTime = clock.now - started
        if isFull { lastFull = at }
        if isDay { lastDay = at }
        let (box, options) = (self.box, self.options)
        let keepingFrom = nowSeconds - ReminderRange.month.seconds
        // CPU work of a core for up to a fifth of a second: on the low-priority threads, as
        // the reads are, never on the two threads that answer requests.
        let made = try await LowPriorityThreads.shared.run { [platforms] in
            if isFull { box.store = ReminderStore() }
            box.store.replace(after: from, with: read, keepingFrom: keepingFrom, now: nowSeconds)
            return (
                reports: box.store.reports(now: nowSeconds, options: options, platforms: platforms),
                lastSent: box.store.lastSent(before: nowSeconds),
                oldestOverdue: box.store.oldestOverdue(now: nowSeconds), count: box.store.count,
                unreadable: box.store.unreadableOutside + box.store.unreadableInside
            )
        }
        let reports = made.reports
        // New reminder rows are the backend writing too (a stalled sender still schedules):
        // the first refresh has nothing to compare with, so only growth seen counts.
        if let previous = lastReminderID, let latest = read.lastReminderID, latest > previous { remindersGrewAt = at }
        lastReminderID = read.lastReminderID ?? lastReminderID
        let newestAppData = [read.newestAppData, remindersGrewAt].compactMap { $0 }.max()
        let alerts = evaluateAlerts(
            reports[.hour], lastSent: made.lastSent, oldestOverdue: made.oldestOverdue, newestAppData: newestAppData,
            at: at)
        let snapshot = ReminderHealthSnapshot(
            asOf: at, reports: reports, alerts: alerts, newestAppData: newestAppData,
            scheduledTimeUnreadable: made.unreadable,
            lastFullCount: lastFull ?? at)
        published.withLock { $0 = snapshot }
        logger.info(
            "reminder health counted",
            metadata: [
                "full": "\(isFull)", "rows_read": "\(read.rows.count)", "rows_kept": "\(made.count)",
                "seconds": "\(Self.seconds(clock.now - started))", "read_seconds": "\(Self.seconds(readTime))",
                "alerts": "\(alerts.map(\.kind.rawValue).joined(separator: ","))",
            ])
    }

    private func evaluateAlerts(
        _ hour: ReminderHealthReport?, lastSent: Int64?, oldestOverdue: Int64?, newestAppData: Date?, at: Date
    ) -> [ReminderAlert] {
        let found = ReminderAlertRules(options: options).alerts(
            hour: hour, lastSent: lastSent, oldestOverdue: oldestOverdue, newestAppData: newestAppData, now: at)
        var since: [ReminderAlert.Kind: Date] = [:]
        let alerts = found.map { alert in
            since[alert.kind] = alertSince[alert.kind] ?? at
            // The rows say when it began; otherwise the first refresh that saw it.
            guard alert.began == .firstSeen else { return alert }
            return ReminderAlert(
                kind: alert.kind, sentence: alert.sentence, since: alertSince[alert.kind] ?? at, began: .firstSeen,
                asOf: at)
        }
        alertSince = since
        return alerts
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.attoseconds) / 1e18 + Double(duration.components.seconds)
    }
}
