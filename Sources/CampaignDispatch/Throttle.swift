import AdminDomain

/// Pushes a second per campaign, as a token bucket holding at most a second's worth.
struct Throttle {
    /// FCM's default quota is 600,000 messages a minute per project.
    static let providersQuota = 10_000

    private var tokens: [Int64: Double] = [:]
    private var last: ContinuousClock.Instant?

    mutating func allowance(for campaigns: [(id: Int64, perSecond: Int?)], at now: ContinuousClock.Instant) -> [Int64:
        Int]
    {
        let elapsed = last.map { now - $0 } ?? .seconds(1)
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var allowance: [Int64: Int] = [:]
        var kept: [Int64: Double] = [:]
        for campaign in campaigns {
            let rate = Double(max(1, campaign.perSecond ?? Self.providersQuota))
            let filled = min(rate, (tokens[campaign.id] ?? 0) + rate * seconds)
            kept[campaign.id] = filled
            allowance[campaign.id] = Int(filled.rounded(.down))
        }
        tokens = kept
        return allowance
    }

    mutating func spend(_ claimed: [ClaimedDelivery]) {
        for delivery in claimed { spend(campaign: delivery.campaignID) }
    }

    mutating func spend(campaign: Int64) {
        tokens[campaign, default: 0] -= 1
    }
}
