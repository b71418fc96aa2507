import AdminDomain
import Dispatch
import Foundation
import TestSupport
import Testing

/// A count nobody waits for yields to requests (issue 24); one somebody waits for must not
/// wait behind it. Both low-priority threads are held busy here, as a load that never
/// pauses would keep them: the yielding count cannot read at all.
@Suite(.timeLimit(.minutes(20))) struct CountPriority {
    @Test func aPageThatWaitsGetsFiguresWhileTheYieldingCountCannotRead() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 200)
        defer { temp.remove() }
        let database = try await PanelDatabase.open(path: temp.path)
        let refresher = DashboardRefresher(database: database)
        let gate = DispatchSemaphore(value: 0)
        let held = (0..<2).map { _ in Task { try await LowPriorityThreads.shared.run { gate.wait() } } }
        let yielding = Task { await refresher.refresh() }
        let deadline = ContinuousClock.now + .seconds(20)
        while await !refresher.isRefreshing, ContinuousClock.now < deadline { await Task.yield() }
        #expect(await refresher.isRefreshing, "the yielding count started")

        let snapshot = try await refresher.snapshot()
        #expect(snapshot.totalUsers > 0)
        #expect(await refresher.refreshCount == 1)

        gate.signal()
        gate.signal()
        for task in held { try await task.value }
        await yielding.value
        #expect(await refresher.refreshCount == 1, "the count it replaced changed nothing when it ended")
        #expect(try await refresher.snapshot().totalUsers == snapshot.totalUsers)
    }
}
