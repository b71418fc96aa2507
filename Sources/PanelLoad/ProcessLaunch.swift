import Foundation
import Synchronization

/// Starts child processes one at a time in this process: Foundation's `Process.run()` on
/// Linux crashed (in a memcpy inside `run()`) with two tests launching at once.
public enum ProcessLaunch {
    private static let launching = Mutex(())

    /// `process.run()`, waiting for any other launch: for threads that may block.
    public static func run(_ process: Process) throws {
        try launching.withLock { _ in try process.run() }
    }

    /// The same from async code, on a thread of its own so that no cooperative thread waits.
    public static func runOffThePool(_ process: Process) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread { continuation.resume(with: Result { try run(process) }) }.start()
        }
    }
}
