import AdminDomain
import Foundation

/// A campaign's live counts, read at most every `maxAge` however many pages watch it: one
/// indexed GROUP BY shared by every open status page.
actor CampaignProgressCache {
    private var entries: [Int64: (progress: CampaignProgress, at: ContinuousClock.Instant)] = [:]
    private var reading: [Int64: Task<CampaignProgress, any Error>] = [:]
    let campaigns: Campaigns
    let maxAge: Duration

    init(campaigns: Campaigns, maxAge: Duration = .milliseconds(400)) {
        self.campaigns = campaigns
        self.maxAge = maxAge
    }

    func progress(_ id: Int64) async throws -> CampaignProgress {
        if let entry = entries[id], ContinuousClock.now - entry.at < maxAge { return entry.progress }
        if let task = reading[id] { return try await task.value }
        let campaigns = self.campaigns
        let task = Task { try await campaigns.progress(id) }
        reading[id] = task
        defer { reading[id] = nil }
        let progress = try await task.value
        if entries.count > 256 { entries.removeAll() }
        entries[id] = (progress, ContinuousClock.now)
        return progress
    }
}
