/// The campaign's holdout draw, for the preview to count who it takes (`CampaignDraw`).
public struct HoldoutDraw: Sendable, Equatable {
    public let campaign: Int64
    public let percent: Int

    public init(campaign: Int64, percent: Int) {
        self.campaign = campaign
        self.percent = percent
    }

    func holds(_ user: Int64) -> Bool {
        percent > 0
            && CampaignDraw.arm(campaign: campaign, user: user, holdoutPercent: percent, variants: 1, testPercent: nil)
                == .holdout
    }
}
