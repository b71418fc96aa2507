import GRDB
import Synchronization

/// Small writes that need not wait for the disk, many callers at a time in one transaction
/// (a group commit): the audit rows of looks, about one a page, which under 64 connections
/// queued one transaction each for the write lock the backend shares. Whoever finds no
/// transaction under way writes its own and every write waiting at that moment, each in a
/// savepoint of its own (one write's error undoes only it, and reaches only its caller);
/// when that commits, the next waiter in line writes the next group. Every caller returns
/// only once its write is committed, as before.
actor GroupedWrites {
    /// One caller's write, run inside the group's transaction; it keeps its own result.
    typealias Job = @Sendable (Database) -> Void

    private enum Turn {
        /// Committed with the group, or the group's transaction failed with this error.
        case written((any Error)?)
        /// Not written yet: this caller writes the next group.
        case lead
    }

    private struct Waiter {
        let job: Job
        let turn: CheckedContinuation<Turn, Never>
    }

    /// Writes a group holds at most: a flood of looks waits for several short transactions
    /// rather than holding the write lock the backend shares for one long one.
    static let mostPerGroup = 100

    private let transaction: @Sendable (@escaping @Sendable (Database) throws -> Void) async throws -> Void
    private var waiting: [Waiter] = []
    private var busy = false

    /// `transaction`: one write transaction running the body (the unsynced writer's).
    init(transaction: @escaping @Sendable (@escaping @Sendable (Database) throws -> Void) async throws -> Void) {
        self.transaction = transaction
    }

    /// Callers waiting for the next group (tests).
    var waitingCount: Int { waiting.count }

    /// Runs `job` in a group's transaction; returns once that committed, or throws its error.
    func run(_ job: @escaping Job) async throws {
        if busy {
            let turn = await withCheckedContinuation { waiting.append(Waiter(job: job, turn: $0)) }
            switch turn {
            case .written(let failure):
                if let failure { throw failure }
                return
            case .lead:
                break
            }
        } else {
            busy = true
        }
        let taken = min(waiting.count, Self.mostPerGroup - 1)
        let group = Array(waiting.prefix(taken))
        waiting.removeFirst(taken)
        let jobs = [job] + group.map(\.job)
        var failure: (any Error)?
        do {
            // Shielded: the group carries other callers' writes, and GRDB refuses a write to a
            // cancelled task (a leader whose request was dropped would fail them all).
            let transaction = self.transaction
            try await Task { try await transaction { db in for job in jobs { job(db) } } }.value
        } catch {
            failure = error
        }
        for waiter in group { waiter.turn.resume(returning: .written(failure)) }
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().turn.resume(returning: .lead)
        }
        if let failure { throw failure }
    }
}

extension PanelDatabase {
    /// A write like `writeWithoutWaitingForDisk`, in a transaction shared with the other
    /// callers waiting at that moment (`GroupedWrites`), in a savepoint of its own.
    public func writeGrouped<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let result = GroupedResult<T>()
        try await groupedWrites.run { db in
            do {
                var value: T?
                try db.inSavepoint {
                    value = try updates(db)
                    return .commit
                }
                result.keep(value.map { .success($0) })
            } catch {
                result.keep(.failure(error))
            }
        }
        guard let outcome = result.kept else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a grouped write ran without a result")
        }
        return try outcome.get()
    }
}

/// One caller's result, set inside the group's transaction on the writer's thread and read
/// by the caller once it committed.
private final class GroupedResult<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, any Error>?>(nil)

    func keep(_ result: Result<T, any Error>?) {
        value.withLock { $0 = result }
    }

    var kept: Result<T, any Error>? { value.withLock { $0 } }
}
