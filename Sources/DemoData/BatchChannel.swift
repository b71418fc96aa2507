import Foundation

/// A bounded hand-over between the generating thread and the SQLite thread: the generator
/// waits when the inserter falls behind, so memory stays flat.
final class BatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [RowBatch] = []
    private var closed = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// false once the consumer has gone: the producer should stop.
    @discardableResult
    func put(_ batch: RowBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// nil when the producer has finished and everything was taken.
    func take() -> RowBatch? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closed { condition.wait() }
        guard !queue.isEmpty else { return nil }
        condition.broadcast()
        return queue.removeFirst()
    }

    /// Called by the producer when done, or by the consumer when it fails.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
