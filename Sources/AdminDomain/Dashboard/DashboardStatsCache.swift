import Foundation
import GRDB

/// Keeps the dashboard off the big tables: the numbers are computed at most once per
/// `maxAge`, in one task at a time, and a stale value is served while a fresh one is made.
public actor DashboardStatsCache {
    private let database: PanelDatabase
    private let maxAge: TimeInterval
    private var current: DashboardStats?
    private var refresh: Task<DashboardStats, any Error>?

    public init(database: PanelDatabase, maxAge: TimeInterval) {
        self.database = database
        self.maxAge = maxAge
    }

    public func stats(now: Date = Date()) async throws -> DashboardStats {
        if let current, now.timeIntervalSince(current.computedAt) < maxAge {
            return current
        }
        let task = refresh ?? startRefresh()
        if let current {
            return current
        }
        return try await task.value
    }

    /// The numbers computed last, never waiting: nil before the first computation is done.
    public func latest() -> DashboardStats? {
        current
    }

    /// Computes the numbers now (or joins a computation under way): the refresher job's call.
    @discardableResult
    public func refresh() async throws -> DashboardStats {
        try await (refresh ?? startRefresh()).value
    }

    private func startRefresh() -> Task<DashboardStats, any Error> {
        let database = self.database
        let task = Task {
            do {
                let fresh = try await DashboardStats.compute(database: database)
                self.finishRefresh(with: fresh)
                return fresh
            } catch {
                self.finishRefresh(with: nil)
                throw error
            }
        }
        refresh = task
        return task
    }

    private func finishRefresh(with stats: DashboardStats?) {
        if let stats { current = stats }
        refresh = nil
    }
}
