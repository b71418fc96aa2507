import Foundation

/// Blocking work of a test (seeding, copying a database, waiting for a child process) on a
/// thread of its own: never on Swift's cooperative pool, whose two threads every test shares,
/// nor on a concurrent dispatch queue, which runs only as many blocks at once as there are
/// cores, so that two children waiting for their exit would hold up every seeding behind them.
public enum OffThePool {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
