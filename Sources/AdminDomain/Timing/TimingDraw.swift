/// Who is in a campaign's or journey's timing control share: drawn per (campaign, user) or
/// per journey entry, independent of the holdout, test share and variant draws, and the
/// same again after a restart.
enum TimingDraw {
    static let controlSalt: UInt64 = 0x7469_6D65

    static func isControl(campaign: Int64, user: Int64, percent: Int) -> Bool {
        CampaignDraw.draw(campaign: campaign, user: user, salt: controlSalt) < percent * 100
    }
}
