import Synchronization

/// Whether anyone waits for the dashboard's count under way: set by a page that has no
/// snapshot to show yet, read by the count before each of its reads.
final class CountPriority: Sendable {
    private let waited = Atomic<Bool>(false)

    var isWaitedOn: Bool {
        get { waited.load(ordering: .relaxed) }
        set { waited.store(newValue, ordering: .relaxed) }
    }
}
