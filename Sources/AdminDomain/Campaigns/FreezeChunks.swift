/// How many users the freeze writes in one transaction. A fixed number (tests, the floor's
/// SQL), or as many as fit `target`, learnt from the chunks already written: the backend
/// shares the write lock, and machines differ by 2× in speed, so a count that held the lock
/// 44 ms on one box held it 50 ms on a busier run. One step moves the size by at most half
/// again, so a sparse stretch of ids cannot grow a chunk far before a dense one arrives.
public struct FreezeChunks: Sendable, Equatable {
    /// The next chunk's users.
    public private(set) var users: Int
    /// nil: every chunk is `users`.
    public let target: Duration?
    public static let fewest = 100
    public static let most = 2_000

    /// 1,000 users to start (about 780 deliveries at a million users held the lock 28–44 ms
    /// on two cores), then sized to 25 ms.
    public static let timed = FreezeChunks(users: 1_000, target: .milliseconds(25))

    public static func fixed(_ users: Int) -> FreezeChunks {
        FreezeChunks(users: max(1, users), target: nil)
    }

    /// A chunk of `users` held the lock `held`: the next is sized from that rate.
    public mutating func written(users chunk: Int, held: Duration) {
        guard let target, chunk > 0 else { return }
        let heldSeconds = max(held.seconds, 0.000_1)
        let fitting = Double(chunk) * target.seconds / heldSeconds
        let stepped = min(max(fitting, Double(users) / 2), Double(users) * 1.5)
        users = min(Self.most, max(Self.fewest, Int(stepped.rounded(.down))))
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
