import Foundation
import Synchronization

/// Lets a periodic job skip a tick when nothing it reads can have changed: no commit by
/// another connection (`DatabaseWatch`), nothing published on the campaigns' feed by this
/// process, and less than `atLeastEvery` since it last ran (for work that is due by the
/// clock, such as a winner test's wait).
public final class ChangeGate: Sendable {
    private struct Seen {
        var version: Int?
        var sequence = -1
        var ranAt: ContinuousClock.Instant?
    }

    private let watch: DatabaseWatch
    private let changes: CampaignChanges?
    private let atLeastEvery: Duration
    private let seen = Mutex(Seen())

    public init(watch: DatabaseWatch, changes: CampaignChanges? = nil, atLeastEvery: Duration = .seconds(60)) {
        self.watch = watch
        self.changes = changes
        self.atLeastEvery = atLeastEvery
    }

    /// Whether to run now; a yes counts as a run from now on.
    public func shouldRun() async -> Bool {
        let version = await watch.version()
        let sequence = changes?.sequence ?? 0
        let now = ContinuousClock.now
        return seen.withLock { seen in
            let due = seen.ranAt.map { now - $0 >= atLeastEvery } ?? true
            guard due || version == nil || version != seen.version || sequence != seen.sequence else { return false }
            seen = Seen(version: version, sequence: sequence, ranAt: now)
            return true
        }
    }
}
