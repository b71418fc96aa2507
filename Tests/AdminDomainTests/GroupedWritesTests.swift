import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import AdminDomain

/// Writes waiting while a group's transaction runs go in the next one together; each caller
/// gets its own result or error, and returns only after its commit.
@Suite(.timeLimit(.minutes(20))) struct GroupedWritesTests {
    /// A transaction that counts itself and, the first time, waits until the test opens it:
    /// the writes asked for meanwhile must all wait for it.
    final class Transactions: Sendable {
        let queue: DatabaseQueue
        let count = Mutex(0)
        let gate = AsyncStream<Void>.makeStream()

        init() throws {
            queue = try DatabaseQueue()
            try queue.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER NOT NULL UNIQUE)") }
        }

        func run(_ body: @escaping @Sendable (Database) throws -> Void) async throws {
            let first = count.withLock { count in
                count += 1
                return count == 1
            }
            if first {
                var gate = self.gate.stream.makeAsyncIterator()
                _ = await gate.next()
            }
            try await queue.write(body)
        }

        func values() async throws -> [Int] {
            try await queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") }
        }
    }

    @Test func writesWaitingMeanwhileShareTheNextTransaction() async throws {
        let transactions = try Transactions()
        let groups = GroupedWrites { body in try await transactions.run(body) }
        let insert: @Sendable (Int) -> GroupedWrites.Job = { n in
            { db in try? db.execute(sql: "INSERT INTO t (n) VALUES (?)", arguments: [n]) }
        }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            // The first holds the first transaction until every other write waits behind it.
            tasks.addTask { try await groups.run(insert(0)) }
            while transactions.count.withLock({ $0 }) == 0 { await Task.yield() }
            for n in 1...20 { tasks.addTask { try await groups.run(insert(n)) } }
            while await groups.waitingCount < 20 { await Task.yield() }
            transactions.gate.continuation.yield()
            try await tasks.waitForAll()
        }
        #expect(try await transactions.values() == Array(0...20))
        // The first alone, then the twenty that waited, together.
        #expect(transactions.count.withLock { $0 } == 2)
    }

    /// More waiting than a group holds: the first group takes its most, the rest follow.
    @Test func aGroupHoldsAtMostItsMost() async throws {
        let transactions = try Transactions()
        let groups = GroupedWrites { body in try await transactions.run(body) }
        let most = GroupedWrites.mostPerGroup
        let insert: @Sendable (Int) -> GroupedWrites.Job = { n in
            { db in try? db.execute(sql: "INSERT INTO t (n) VALUES (?)", arguments: [n]) }
        }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await groups.run(insert(0)) }
            while transactions.count.withLock({ $0 }) == 0 { await Task.yield() }
            for n in 1...(most + 10) { tasks.addTask { try await groups.run(insert(n)) } }
            while await groups.waitingCount < most + 10 { await Task.yield() }
            transactions.gate.continuation.yield()
            try await tasks.waitForAll()
        }
        #expect(try await transactions.values() == Array(0...(most + 10)))
        // The first alone, a full group, then the ten left.
        #expect(transactions.count.withLock { $0 } == 3)
    }

    /// GRDB refuses a write to a cancelled task: a leader whose request was dropped still
    /// writes the group it carries.
    @Test func aCancelledCallerStillWritesItsGroup() async throws {
        let transactions = try Transactions()
        transactions.gate.continuation.yield()
        let groups = GroupedWrites { body in try await transactions.run(body) }
        let failed = try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.cancelAll()
            tasks.addTask {
                #expect(Task.isCancelled)
                do {
                    try await groups.run { db in try? db.execute(sql: "INSERT INTO t (n) VALUES (1)") }
                    return false
                } catch {
                    return true
                }
            }
            return try await tasks.next() ?? true
        }
        #expect(!failed)
        #expect(try await transactions.values() == [1])
    }

    @Test func aCallerGetsItsOwnValueAndItsOwnError() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 3)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        struct Refused: Error {}
        async let seven = database.writeGrouped { _ in 7 }
        async let refused: Int = database.writeGrouped { db in
            try AuditLog.insert(
                AuditEntry(actor: nil, actorEmail: "x@example.com", clientAddress: nil, action: .forbidden), in: db)
            throw Refused()
        }
        async let eight = database.writeGrouped { _ in 8 }
        #expect(try await seven == 7)
        #expect(try await eight == 8)
        do {
            _ = try await refused
            Issue.record("the refused write returned")
        } catch {
            #expect(error is Refused)
        }
        // The failed write's own row was undone with its savepoint.
        let rows = try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM panel_audit_log WHERE actor_email = 'x@example.com'")
        }
        #expect(rows == 0)
    }
}
