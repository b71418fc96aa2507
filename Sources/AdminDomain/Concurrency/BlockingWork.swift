import Dispatch

/// Work that blocks its thread (opening SQLite, reading a file, a hash, seeding) runs here,
/// never on Swift's cooperative pool: that pool has one thread per core (two on the
/// production machine), and a blocked thread there stalls every request.
public enum BlockingWork {
    private static let queue = DispatchQueue(label: "panel.blocking-work", qos: .userInitiated, attributes: .concurrent)

    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
