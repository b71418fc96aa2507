/// One page the load visits, by name, and the statuses that count as answered.
public struct LoadPage: Sendable {
    public let name: String
    public let path: String

    public init(_ name: String, _ path: String) {
        self.name = name
        self.path = path
    }

    /// What support and admins open on a busy day: every page that reads the app's big
    /// tables, including the 20,000-item user's profile and a streamed export.
    public static func standardMix(fixture: LoadFixture) -> [LoadPage] {
        [
            LoadPage("dashboard", "/"),
            LoadPage("dashboard 365 days", "/?range=365"),
            LoadPage("dashboard chart csv", "/dashboard.csv?chart=active-users&range=365"),
            LoadPage("reminders", "/reminders"),
            LoadPage("reminders 30 days", "/reminders?range=30d"),
            LoadPage("search", "/users?q=maria"),
            LoadPage("suggestions", "/users/suggestions?q=mari"),
            LoadPage("profile", "/users/\(fixture.typicalUserID)"),
            LoadPage("profile 20,000 items", "/users/\(fixture.whaleUserID)"),
            // A name search among one user's items, through their index only.
            LoadPage("items searched by name", "/users/\(fixture.whaleUserID)/items?kind=food&name=mi"),
            LoadPage("items 20,000, expired", "/users/\(fixture.whaleUserID)/items?kind=food&state=expired"),
            LoadPage("activity active", "/activity?bucket=active"),
            LoadPage("activity idle", "/activity?bucket=idle"),
            LoadPage("activity inactive", "/activity?bucket=inactive"),
            LoadPage("activity never", "/activity?bucket=never"),
            LoadPage("activity oldest sign-ups", "/activity?bucket=inactive&sort=sign_up&dir=asc"),
            LoadPage("export csv", "/activity.csv?bucket=inactive"),
            LoadPage("audit log", "/audit"),
            LoadPage("activity log", "/users/\(fixture.typicalUserID)/activity"),
            LoadPage("user's reminders", "/users/\(fixture.typicalUserID)/reminders"),
            LoadPage("reminders 20,000 items", "/users/\(fixture.whaleUserID)/reminders?status=sent&page=2"),
            LoadPage("staff", "/admins"),
            LoadPage("confirm", "/admins/end-all-sessions"),
            LoadPage("failed sign-ins", "/admins/sign-in-failures"),
            // The live counts' event stream stays open by design, so it is not in a mix
            // that times each answer; the page it feeds is.
            LoadPage("campaigns", "/campaigns"),
            LoadPage("composer", "/campaigns/new"),
            LoadPage("campaign draft", "/campaigns/\(fixture.draftCampaignID)"),
            LoadPage("campaign confirm", "/campaigns/\(fixture.draftCampaignID)/confirm"),
            LoadPage("campaign status", "/campaigns/\(fixture.launchedCampaignID)"),
            LoadPage("campaign android", "/campaigns/\(fixture.draftCampaignID)?platform=android&language=en"),
            LoadPage("campaign edit", "/campaigns/\(fixture.draftCampaignID)/edit"),
            LoadPage("campaign report csv", "/campaigns/\(fixture.launchedCampaignID)/report.csv"),
            LoadPage("campaign cancel ask", "/campaigns/\(fixture.launchedCampaignID)/cancel"),
            LoadPage("campaigns by status", "/campaigns?status=draft"),
            LoadPage("campaigns oldest first", "/campaigns?sort=created&dir=asc"),
            LoadPage("test users", "/campaigns/test-users"),
            LoadPage("global control group", "/settings/global-control"),
            LoadPage("journeys", "/journeys"),
            LoadPage("journey", "/journeys/\(fixture.journeyID)"),
        ]
    }
}
