import AdminDomain
import Hummingbird
import Synchronization

/// The CSV exports being written at once, per staff member and in all (issue 46): one more is
/// refused at once with 429, a sentence and `Retry-After`, before its first byte. A refusal,
/// not a queue (`AsyncSemaphore` waits without a deadline): a download held waiting keeps the
/// browser's request open with nothing coming, and the person cannot tell it from a hang.
/// Every route whose path ends in `.csv` takes a slot (`StaffRoutes`), and its body is written
/// in the export lane (`DatabaseLane.export`): its own read connections, threads at the
/// lowest priority.
public final class ExportLimits: Sendable {
    public let perStaff: Int
    public let total: Int
    /// Seconds a refused export is told to wait.
    public static let retryAfterSeconds = 10

    private struct Counts {
        var total = 0
        var byStaff: [Int64: Int] = [:]
    }

    private let counts = Mutex(Counts())

    public init(perStaff: Int, total: Int) {
        self.perStaff = max(1, perStaff)
        self.total = max(1, total)
    }

    /// Exports being written now, all staff together.
    public var inFlight: Int { counts.withLock { $0.total } }

    /// A slot for one export by `staff`, or the refusal to show.
    func take(for staff: Int64) throws -> Slot {
        let refusal: String? = counts.withLock { counts in
            let mine = counts.byStaff[staff, default: 0]
            if mine >= perStaff {
                return "You have \(Format.count(mine, "export", "exports")) being written already; "
                    + "each person may have \(perStaff) at once. Try again when one has finished downloading."
            }
            if counts.total >= total {
                return "\(Format.count(counts.total, "export is", "exports are")) being written for staff already, "
                    + "the most the panel writes at once. Try again in a few seconds."
            }
            counts.total += 1
            counts.byStaff[staff] = mine + 1
            return nil
        }
        if let refusal {
            throw PanelError(status: .tooManyRequests, sentence: refusal, retryAfterSeconds: Self.retryAfterSeconds)
        }
        return Slot(limits: self, staff: staff)
    }

    fileprivate func release(_ staff: Int64) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byStaff[staff, default: 1] - 1
            counts.byStaff[staff] = left > 0 ? left : nil
        }
    }

    /// One export's place, given back once: when its body is written, or when the response is
    /// dropped unwritten (a HEAD, a client gone), whichever comes first.
    final class Slot: Sendable {
        private let limits: ExportLimits
        private let staff: Int64
        private let held = Mutex(true)

        fileprivate init(limits: ExportLimits, staff: Int64) {
            self.limits = limits
            self.staff = staff
        }

        func release() {
            let wasHeld = held.withLock { held in
                defer { held = false }
                return held
            }
            guard wasHeld else { return }
            limits.release(staff)
        }

        deinit { release() }

        /// `body` written in the export lane, the slot given back at its end.
        func wrap(_ body: ResponseBody) -> ResponseBody {
            ResponseBody(contentLength: body.contentLength) { [self] writer in
                defer { release() }
                try await DatabaseLane.$current.withValue(.export) { try await body.write(writer) }
            }
        }
    }
}
