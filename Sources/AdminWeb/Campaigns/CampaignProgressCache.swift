import AdminDomain
import Foundation

/// A campaign's live counts, shared by every page that shows or watches it.
///
/// Reads are shared: counts younger than `maxAge` are handed out as they are, and a read
/// under way is joined. Watchers (the live streams) never read on a timer: one task per
/// watched campaign waits on the campaign's change feed and reads once per burst of
/// changes, at most every `minInterval`, for all of them. A quarter of a second: the read
/// of a 775,000-delivery campaign takes about 40 ms, so a campaign being sent costs at most
/// a sixth of a core however many watch it, and an idle one costs nothing. A change
/// published while a read runs (or while the task waits out `minInterval`) stays buffered,
/// so another read follows and the last change always reaches the pages.
actor CampaignProgressCache {
    private struct Entry {
        let progress: CampaignProgress
        /// When its read began: a read that began earlier never replaces it.
        let started: ContinuousClock.Instant
        let at: ContinuousClock.Instant
    }

    private struct Watched {
        var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
        /// Tells its loop apart from a later one for the same campaign.
        var instance = 0
        /// Ends the loop's feed when the last watcher leaves.
        var end: @Sendable () -> Void = {}
    }

    private var entries: [Int64: Entry] = [:]
    private var reading: [Int64: Task<CampaignProgress, any Error>] = [:]
    /// Moves on at each `forget`: a read begun before it never fills the cache after it.
    private var generation: [Int64: Int] = [:]
    private var watched: [Int64: Watched] = [:]
    private var nextWatcher = 0
    private var nextInstance = 0
    /// Reads of the counts, every kind: tests show with it that watchers do not poll.
    private(set) var reads = 0
    /// Run after each read of the counts, before anyone is given them: tests publish a
    /// change there to play one that lands while a read is running.
    private var afterRead: (@Sendable (Int64) async -> Void)?
    let campaigns: Campaigns
    let maxAge: Duration
    let minInterval: Duration
    /// Where the watched campaigns' loops run: the panel's background work, cancelled at shutdown.
    let work: BackgroundWork

    init(
        campaigns: Campaigns, maxAge: Duration = .milliseconds(250), minInterval: Duration = .milliseconds(250),
        work: BackgroundWork
    ) {
        self.work = work
        self.campaigns = campaigns
        self.maxAge = maxAge
        self.minInterval = minInterval
    }

    func progress(_ id: Int64) async throws -> CampaignProgress {
        if let entry = entries[id], ContinuousClock.now - entry.at < maxAge { return entry.progress }
        if let task = reading[id] { return try await task.value }
        let campaigns = self.campaigns
        let started = ContinuousClock.now
        let startedIn = generation[id, default: 0]
        reads += 1
        let task = Task { try await campaigns.progress(id) }
        reading[id] = task
        defer { if generation[id, default: 0] == startedIn { reading[id] = nil } }
        let progress = try await task.value
        if let afterRead { await afterRead(id) }
        guard generation[id, default: 0] == startedIn else { return try await self.progress(id) }
        keep(progress, of: id, started: started)
        return progress
    }

    /// After a person changed the campaign: the next page reads it afresh.
    func forget(_ id: Int64) {
        generation[id, default: 0] += 1
        entries[id] = nil
        reading[id] = nil
    }

    /// A signal each time the campaign's counts were read again after a change, newest
    /// only; `latest` has the counts. The watcher reads the counts once itself after this
    /// (`progress`), may signal the stream itself (a tick of its own) and end it. The stream
    /// ends when its consumer stops, or when a read fails (the page then reconnects).
    func watch(_ id: Int64) -> (AsyncStream<Void>, AsyncStream<Void>.Continuation) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        nextWatcher += 1
        let key = nextWatcher
        continuation.onTermination = { [work] _ in work.submit { await self.unwatch(id, key) } }
        if watched[id] == nil {
            // The first watcher's own read must begin after the subscription, or a change
            // between the two would never reach the page: counts kept from before (or a read
            // under way) are not handed to it. Watchers that join later get counts read after
            // the subscription, which every change since has read again.
            forget(id)
            watched[id] = start(id)
        }
        watched[id]?.watchers[key] = continuation
        return (stream, continuation)
    }

    /// The newest counts of a campaign, from whichever read began last.
    func latest(_ id: Int64) -> CampaignProgress? {
        entries[id]?.progress
    }

    func setAfterRead(_ hook: (@Sendable (Int64) async -> Void)?) {
        afterRead = hook
    }

    private func unwatch(_ id: Int64, _ key: Int) {
        guard watched[id]?.watchers.removeValue(forKey: key) != nil, watched[id]?.watchers.isEmpty == true else {
            return
        }
        watched[id]?.end()
        watched[id] = nil
    }

    private func start(_ id: Int64) -> Watched {
        let (feed, end) = campaigns.changes.subscription(to: id)
        nextInstance += 1
        let instance = nextInstance
        work.submit { await self.readOnChange(id, feed, instance: instance) }
        return Watched(instance: instance, end: end)
    }

    /// Runs until the last watcher leaves (`unwatch` ends `feed`), a read fails, or the
    /// panel shuts down (the background work cancels it).
    private func readOnChange(_ id: Int64, _ feed: AsyncStream<Int>, instance: Int) async {
        // Ended: the panel shuts down, or the last watcher left (`unwatch`).
        func ended() -> Bool { Task.isCancelled || watched[id]?.instance != instance }
        for await _ in feed {
            if let last = entries[id]?.started, ContinuousClock.now - last < minInterval {
                // Changes meanwhile wait in `feed`, one at most: they cost one read after this one.
                try? await Task.sleep(until: last + minInterval, clock: .continuous)
            }
            if ended() { return }
            reads += 1
            let started = ContinuousClock.now
            let startedIn = generation[id, default: 0]
            do {
                let progress = try await campaigns.progress(id)
                if let afterRead { await afterRead(id) }
                if ended() { return }
                if generation[id, default: 0] == startedIn { keep(progress, of: id, started: started) }
                for watcher in (watched[id]?.watchers ?? [:]).values { watcher.yield() }
            } catch {
                if ended() { return }
                for watcher in (watched[id]?.watchers ?? [:]).values { watcher.finish() }
                watched[id]?.end()
                watched[id] = nil
                return
            }
        }
    }

    private func keep(_ progress: CampaignProgress, of id: Int64, started: ContinuousClock.Instant) {
        if let kept = entries[id], kept.started > started { return }
        // Pages of many campaigns: the unwatched ones go, the watched ones' counts stay.
        if entries.count > 256 { entries = entries.filter { watched[$0.key] != nil } }
        entries[id] = Entry(progress: progress, started: started, at: ContinuousClock.now)
    }
}
