import Foundation
import Synchronization

/// Each background job's last run, for `/health` and the metrics. A mutex, held for a
/// dictionary update only.
public final class ServiceHealth: Sendable {
    public struct Status: Sendable, Equatable {
        public var runs = 0
        public var lastRunAt: Date?
        public var lastSuccessAt: Date?
        public var lastDuration: Duration?
        /// The error of the last run, when it failed; nil after a success.
        public var lastError: String?
    }

    private let statuses = Mutex<[String: Status]>([:])

    public init() {}

    func register(_ name: String) {
        statuses.withLock { if $0[name] == nil { $0[name] = Status() } }
    }

    func record(_ name: String, at: Date, duration: Duration, error: (any Error)?) {
        statuses.withLock { statuses in
            var status = statuses[name] ?? Status()
            status.runs += 1
            status.lastRunAt = at
            status.lastDuration = duration
            status.lastError = error.map { String(describing: $0) }
            if error == nil { status.lastSuccessAt = at }
            statuses[name] = status
        }
    }

    public var current: [String: Status] { statuses.withLock { $0 } }
}
