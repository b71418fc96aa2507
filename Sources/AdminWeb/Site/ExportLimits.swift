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
    /// An export whose client has not taken its last part for this long stops counting, for
    /// good: a paused download, or a client reading a byte a second, held every slot of the
    /// panel for as long as it stayed open (the tryout of issue 46). Only a write waiting on
    /// the client counts: a file slow to make (rows read at nice 19 on a busy machine) keeps
    /// its slot. Its writing goes on if the client comes back, without a slot; while it waits
    /// it costs a connection, never a core or a read.
    public let stallAfter: Duration
    /// Seconds a refused export is told to wait.
    public static let retryAfterSeconds = 10

    private struct Entry {
        let staff: Int64
        /// When the write now waiting on the client began; nil between writes.
        var writingSince: ContinuousClock.Instant?
    }

    private struct Counts {
        var next = 0
        var slots: [Int: Entry] = [:]

        /// The slots still counting at `now`: stalled ones are let go for good.
        mutating func dropStalled(now: ContinuousClock.Instant, after stall: Duration) {
            slots = slots.filter { entry in entry.value.writingSince.map { now - $0 < stall } ?? true }
        }
    }

    private let counts = Mutex(Counts())
    private let now: @Sendable () -> ContinuousClock.Instant

    public init(
        perStaff: Int, total: Int, stallAfter: Duration = .seconds(30),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.perStaff = max(1, perStaff)
        self.total = max(1, total)
        self.stallAfter = stallAfter
        self.now = now
    }

    /// Exports being written now, all staff together (stalled ones let go).
    public var inFlight: Int {
        let now = now()
        return counts.withLock { counts in
            counts.dropStalled(now: now, after: stallAfter)
            return counts.slots.count
        }
    }

    /// A slot for one export by `staff`, or the refusal to show.
    func take(for staff: Int64) throws -> Slot {
        let now = now()
        let outcome: Result<Int, PanelError> = counts.withLock { counts in
            counts.dropStalled(now: now, after: stallAfter)
            let mine = counts.slots.values.count { $0.staff == staff }
            if mine >= perStaff {
                return .failure(
                    Self.refusal(
                        "You have \(Format.count(mine, "export", "exports")) being written already; each person may "
                            + "have \(perStaff) at once. Try again when one has finished downloading (a download "
                            + "paused for \(stallAfter.components.seconds) seconds stops counting)."))
            }
            if counts.slots.count >= total {
                return .failure(
                    Self.refusal(
                        "\(Format.count(counts.slots.count, "export is", "exports are")) being written for staff "
                            + "already, the most the panel writes at once. Try again in a few seconds."))
            }
            counts.next += 1
            counts.slots[counts.next] = Entry(staff: staff)
            return .success(counts.next)
        }
        return Slot(limits: self, id: try outcome.get())
    }

    private static func refusal(_ sentence: String) -> PanelError {
        PanelError(status: .tooManyRequests, sentence: sentence, retryAfterSeconds: retryAfterSeconds)
    }

    /// A write to the client began (`writing`) or ended.
    fileprivate func writing(_ id: Int, _ writing: Bool) {
        let now = writing ? now() : nil
        counts.withLock { counts in counts.slots[id]?.writingSince = now }
    }

    fileprivate func release(_ id: Int) {
        _ = counts.withLock { $0.slots.removeValue(forKey: id) }
    }

    /// One export's place, given back once: when its body is written, or when the response is
    /// dropped unwritten (a HEAD, a client gone), whichever comes first; or taken back when
    /// one write waits on its client for `stallAfter`.
    final class Slot: Sendable {
        private let limits: ExportLimits
        private let id: Int

        fileprivate init(limits: ExportLimits, id: Int) {
            self.limits = limits
            self.id = id
        }

        func release() { limits.release(id) }

        /// A part is being handed to the client, until `writeEnded()`.
        func writeBegan() { limits.writing(id, true) }

        func writeEnded() { limits.writing(id, false) }

        deinit { release() }

        /// `body` written in the export lane, each write timed while it waits on the client,
        /// the slot given back at its end.
        func wrap(_ body: ResponseBody) -> ResponseBody {
            ResponseBody(contentLength: body.contentLength) { [self] writer in
                defer { release() }
                let counted = ProgressCountingWriter(inner: writer, slot: self)
                try await DatabaseLane.$current.withValue(.export) { try await body.write(counted) }
            }
        }
    }
}

/// Passes each part on, telling the slot while the write waits (it returns when the
/// connection can take more).
private struct ProgressCountingWriter: ResponseBodyWriter {
    var inner: any ResponseBodyWriter
    let slot: ExportLimits.Slot

    mutating func write(_ buffer: ByteBuffer) async throws {
        slot.writeBegan()
        defer { slot.writeEnded() }
        try await inner.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await inner.finish(trailingHeaders)
    }
}
