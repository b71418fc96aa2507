import AdminDomain
import Foundation

extension Campaigns {
    /// A launch the way the server makes it: `begin` (the launch page or the CLI), then what
    /// the dispatcher's freeze loop runs (`resumeLaunches`), which freezes every launched
    /// audience. Returns what that freeze wrote.
    @discardableResult
    public func beginAndFreeze(_ id: Int64, schedule: CampaignSchedule = .now, by actor: AuditActor, now: Date = Date())
        async throws -> LaunchReport
    {
        try await begin(id, schedule: schedule, by: actor, now: now)
        return try await resumeLaunches(now: now)
    }
}
