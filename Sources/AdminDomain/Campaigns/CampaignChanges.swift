import Synchronization

/// Which campaigns' counts or status may have changed, published when the write transaction
/// that changed them commits in this process (`publishOnCommit`, called inside the write):
/// the dispatcher's claims and outcomes, the receipt poller's batches, the campaign and
/// journey use cases (launch, freeze, pause, resume, cancel, finish, a winner's release). The
/// live pages, the pause and resume actions and the dispatcher wait on it instead of reading
/// on a timer.
///
/// A change committed by another process (a second panel, a hand edit) is not published:
/// a receipt the backend wrote reaches the feed when this process's poller reads it, and
/// anything else is seen at the next fresh read (a live stream's reconnect reads afresh); the
/// dispatcher notices another process's writes through SQLite's `data_version`.
///
/// Each subscriber gets the feed's sequence number at the publish, and only the newest one
/// is buffered: the value says "read again", so a slow subscriber loses no change it has
/// not read yet, and its buffer never grows.
public final class CampaignChanges: Sendable {
    private struct Subscriber {
        /// nil: every campaign.
        let campaign: Int64?
        let continuation: AsyncStream<Int>.Continuation
    }

    private struct State {
        var sequence = 0
        var nextSubscriber = 0
        var subscribers: [Int: Subscriber] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// How many publishes so far: a job compares it with the one it last saw.
    public var sequence: Int { state.withLock { $0.sequence } }

    /// Call after the transaction commits: a subscriber that reads on being woken before the
    /// commit would read the old counts and then wait for nothing.
    public func publish(_ campaigns: some Sequence<Int64>) {
        let touched = Set(campaigns)
        guard !touched.isEmpty else { return }
        let (sequence, wake) = state.withLock { state in
            state.sequence += 1
            return (
                state.sequence,
                state.subscribers.values.filter { $0.campaign.map(touched.contains) ?? true }.map(\.continuation)
            )
        }
        // Outside the lock: a yield never blocks, but a continuation's termination handler
        // takes the lock.
        for continuation in wake { continuation.yield(sequence) }
    }

    public func publish(_ campaign: Int64) {
        publish(CollectionOfOne(campaign))
    }

    /// The changes of one campaign from now on, until the stream's consumer stops (its task
    /// cancelled, or the stream dropped). Subscribe before reading what the change would
    /// alter, so that nothing published between the read and the wait is missed.
    public func subscribe(to campaign: Int64) -> AsyncStream<Int> {
        subscribe(campaign: campaign).stream
    }

    /// As `subscribe(to:)`, with `end` to finish the stream from outside: for a loop run
    /// by another task than the one that decides it should stop.
    public func subscription(to campaign: Int64) -> (changes: AsyncStream<Int>, end: @Sendable () -> Void) {
        let (stream, continuation) = subscribe(campaign: campaign)
        return (stream, { continuation.finish() })
    }

    /// The changes of every campaign from now on: for the dispatcher, which wakes on any.
    public func subscribeToAll() -> AsyncStream<Int> {
        subscribe(campaign: nil).stream
    }

    private func subscribe(campaign: Int64?) -> (stream: AsyncStream<Int>, continuation: AsyncStream<Int>.Continuation)
    {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = Subscriber(campaign: campaign, continuation: continuation)
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return (stream, continuation)
    }

    /// Subscribers not yet ended, for tests.
    public var subscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }
}
