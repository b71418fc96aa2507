import AdminDomain
import Foundation

/// A campaign's live counts, shared by every page that shows or watches it.
///
/// Watchers (the live streams) never read on a timer: one task per watched campaign waits
/// on the campaign's change feed and reads once per burst of changes, at most every
/// `minInterval`, for all of them. A quarter of a second: the read of a 775,000-delivery
/// campaign takes about 40 ms, so a campaign being sent costs at most a sixth of a core
/// however many watch it, and an idle one costs nothing. A change published while a read
/// runs (or while the task waits out `minInterval`) stays buffered, so another read follows
/// and the last change always reaches the pages.
///
/// Page loads (`progress`) take counts younger than `maxAge`, or join the read under way.
actor CampaignProgressCache {
    private var entries: [Int64: (progress: CampaignProgress, at: ContinuousClock.Instant)] = [:]
    private var reading: [Int64: Task<CampaignProgress, any Error>] = [:]
    /// Moves on at each `forget`: a read begun before it never fills the cache after it.
    private var generation: [Int64: Int] = [:]
    private var watched: [Int64: Watched] = [:]
    private var nextWatcher = 0
    /// Reads of the counts, every kind: tests show with it that watchers do not poll.
    private(set) var reads = 0
    /// Run after each of a watched campaign's reads, before its watchers hear of it: tests
    /// publish a change there to play one that lands while a read is running.
    private var afterRead: (@Sendable (Int64) async -> Void)?
    let campaigns: Campaigns
    let maxAge: Duration
    let minInterval: Duration

    private struct Watched {
        var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
        var latest: (progress: CampaignProgress, at: ContinuousClock.Instant)?
        /// Asks the campaign's task for a read: its feed, and newcomers that find old counts.
        let wake: AsyncStream<Void>.Continuation
        var task: Task<Void, Never>?
    }

    init(campaigns: Campaigns, maxAge: Duration = .milliseconds(250), minInterval: Duration = .milliseconds(250)) {
        self.campaigns = campaigns
        self.maxAge = maxAge
        self.minInterval = minInterval
    }

    func progress(_ id: Int64) async throws -> CampaignProgress {
        if let entry = entries[id], ContinuousClock.now - entry.at < maxAge { return entry.progress }
        if let task = reading[id] { return try await task.value }
        let campaigns = self.campaigns, started = generation[id, default: 0]
        reads += 1
        let task = Task { try await campaigns.progress(id) }
        reading[id] = task
        defer { if generation[id, default: 0] == started { reading[id] = nil } }
        let progress = try await task.value
        guard generation[id, default: 0] == started else { return try await self.progress(id) }
        keep(progress, of: id)
        return progress
    }

    /// After a person changed the campaign: the next page reads it afresh.
    func forget(_ id: Int64) {
        generation[id, default: 0] += 1
        entries[id] = nil
        reading[id] = nil
    }

    /// A signal each time the campaign's counts were read (the first as soon as there are
    /// counts), newest only; `latest` has them. It ends when its consumer stops, or when a
    /// read fails (the stream's page then reconnects).
    func watch(_ id: Int64) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        nextWatcher += 1
        let key = nextWatcher
        continuation.onTermination = { _ in Task { await self.unwatch(id, key) } }
        if watched[id] == nil {
            watched[id] = start(id)
        } else if let latest = watched[id]?.latest {
            if ContinuousClock.now - latest.at < maxAge {
                continuation.yield()
            } else {
                // Counts older than `maxAge` may miss a change no publisher told of (another
                // process, a hand edit): a newcomer, such as a page reconnecting, reads afresh.
                watched[id]?.wake.yield()
            }
        }
        // Else the first read is under way, and tells every watcher.
        watched[id]?.watchers[key] = continuation
        return stream
    }

    /// The counts of the last read of a watched campaign.
    func latest(_ id: Int64) -> CampaignProgress? {
        watched[id]?.latest?.progress
    }

    func setAfterRead(_ hook: (@Sendable (Int64) async -> Void)?) {
        afterRead = hook
    }

    private func unwatch(_ id: Int64, _ key: Int) {
        guard watched[id]?.watchers.removeValue(forKey: key) != nil, watched[id]?.watchers.isEmpty == true else { return }
        watched[id]?.task?.cancel()
        watched[id] = nil
    }

    private func start(_ id: Int64) -> Watched {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Subscribed before the first read, so that nothing published after it is missed.
        let feed = campaigns.changes.subscribe(to: id)
        wake.yield()
        var watched = Watched(wake: wake)
        watched.task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in feed { wake.yield() }
                }
                group.addTask { await self.readOnWake(id, wakes) }
                await group.next()
                group.cancelAll()
            }
        }
        return watched
    }

    /// Runs until the last watcher leaves (the task is cancelled, which ends `wakes`).
    private func readOnWake(_ id: Int64, _ wakes: AsyncStream<Void>) async {
        var lastRead: ContinuousClock.Instant?
        for await _ in wakes {
            if let lastRead, ContinuousClock.now - lastRead < minInterval {
                // Changes meanwhile wait in `wakes`, one at most: they cost one read after this one.
                try? await Task.sleep(until: lastRead + minInterval, clock: .continuous)
            }
            if Task.isCancelled { return }
            lastRead = ContinuousClock.now
            reads += 1
            let started = generation[id, default: 0]
            do {
                let progress = try await campaigns.progress(id)
                if let afterRead { await afterRead(id) }
                if Task.isCancelled { return }
                if generation[id, default: 0] == started { keep(progress, of: id) }
                watched[id]?.latest = (progress, ContinuousClock.now)
                for watcher in (watched[id]?.watchers ?? [:]).values { watcher.yield() }
            } catch {
                if Task.isCancelled { return }
                for watcher in (watched[id]?.watchers ?? [:]).values { watcher.finish() }
                watched[id] = nil
                return
            }
        }
    }

    private func keep(_ progress: CampaignProgress, of id: Int64) {
        if entries.count > 256 { entries.removeAll() }
        entries[id] = (progress, ContinuousClock.now)
    }
}
