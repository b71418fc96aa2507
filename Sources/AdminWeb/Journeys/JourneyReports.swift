import AdminDomain
import Foundation

/// Journeys' reports, each built at most once every `keptFor` however many pages ask: a
/// report reads every entry of the journey at low priority (about a second on a big one).
/// Concurrent asks for the same journey wait on the same build.
actor JourneyReports {
    private var kept: [Int64: (report: JourneyReport, at: ContinuousClock.Instant)] = [:]
    private var building: [Int64: Task<JourneyReport, any Error>] = [:]
    let database: PanelDatabase
    let keptFor: Duration

    init(database: PanelDatabase, keptFor: Duration = .seconds(30)) {
        self.database = database
        self.keptFor = keptFor
    }

    func report(_ id: Int64) async throws -> JourneyReport {
        if let entry = kept[id], ContinuousClock.now - entry.at < keptFor { return entry.report }
        if let task = building[id] { return try await task.value }
        let database = database
        let task = Task { try await JourneyReport.build(journey: id, in: database) }
        building[id] = task
        defer { building[id] = nil }
        let report = try await task.value
        kept[id] = (report, ContinuousClock.now)
        return report
    }

    /// The report when one was built lately, without building one: for the list, which
    /// must not read every journey's entries.
    func cached(_ id: Int64) -> JourneyReport? {
        guard let entry = kept[id], ContinuousClock.now - entry.at < keptFor * 4 else { return nil }
        return entry.report
    }

    /// The send hours of the entries planned at a usual hour: a handful of running counts,
    /// read afresh each time (no entry is read). nil before any was planned.
    nonisolated func sendHours(_ id: Int64) async throws -> TimingSummary? {
        try await database.read { db in try TimingSummary.load(campaign: id, in: db) }
    }

    /// Three rows at most, kept by the consent readings.
    nonisolated func cost(_ id: Int64) async throws -> PushCost {
        try await database.read { db in try PushCost.load([id], in: db)[id] } ?? PushCost()
    }

    /// After a status change: the next page reads afresh.
    func forget(_ id: Int64) {
        kept[id] = nil
    }
}
