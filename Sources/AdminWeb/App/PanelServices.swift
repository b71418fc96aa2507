import AdminDomain
import CampaignDispatch
import Foundation
import PushClients
import PushTemplates

/// The parts one running panel shares between requests, made once from the configuration:
/// the wiring `buildApplication` hands out. No controller, middleware, page model or job
/// receives it whole; each gets the few parts it uses (see `buildRouter`).
public struct PanelServices: Sendable {
    public let database: PanelDatabase
    public let admins: AdminStore
    public let staff: StaffAdministration
    public let account: AccountSecurity
    public let signIn: SignInService
    /// The dashboard's snapshot and its refreshes.
    public let dashboard: DashboardRefresher
    public let twoFactorPolicy: TwoFactorPolicy
    /// The reminder health figures and alerts, kept up to date in the background.
    public let reminderHealth: ReminderHealthMonitor
    let cookies: PanelCookies
    let trustedProxies: TrustedProxies
    let dashboardRefreshInterval: TimeInterval
    /// How often the reminder figures are re-read, as their page says.
    let reminderRefreshInterval: Duration
    let dashboardFullCountInterval: TimeInterval
    /// The dashboard's page body, rendered once per snapshot and range.
    let dashboardPages = DashboardPageCache()
    /// Every signed-in route and the permission it needs, filled as the router is built.
    let staffRoutes = StaffRoutes.Registry()
    /// Heavy users' status counts and item order, kept for a minute.
    public let heavyUsers = HeavyUserCache()
    /// Recovery codes and generated passwords, held for their one showing after a redirect.
    let shownOnce = ShownOnce()
    /// Forms sent after their session ended, held until their sender signs in again.
    let formStash = FormStash()
    /// Requests whose handlers are running, for the shutdown watchdog.
    public let openRequests = OpenRequests()
    /// The background jobs' last runs, for /health.
    public let health = ServiceHealth()
    public let sweeper: ExpiredRowSweeper
    /// FCM and APNs, as configured; /health says which and when each last authenticated.
    public let push: PushProviders
    public let campaigns: Campaigns
    /// Automated campaigns: their rows are campaigns' (kind 'journey'), sent by the same dispatcher.
    public let journeys: Journeys
    /// The message templates, as read at start; `templateProblem` says why there are none.
    public let templates: PushTemplateLibrary
    let templateProblem: String?
    let previews: AudiencePreviews
    /// Holdout, goal and variant reports of launched campaigns, kept up to date in the background.
    public let impact: CampaignImpactTracker
    let campaignProgress: CampaignProgressCache
    /// Work nobody awaits (previews, dry runs, live pages' reads, a full count an admin
    /// asked for), run as child tasks of a service in the group: `backgroundJobs` adds it.
    public let backgroundWork = BackgroundWork()
    let testSend: CampaignTestSend
    /// Shown on every page (the demo's "pushes go to the simulator").
    let banner: String?
    let eventStreamLength: Duration

    public init(database: PanelDatabase, configuration: PanelConfiguration) {
        self.database = database
        let hasher = PasswordHasher(parameters: configuration.scrypt, maxConcurrentHashes: configuration.maxConcurrentHashes)
        signIn = SignInService(database: database, hasher: hasher, sessionPolicy: configuration.sessionPolicy)
        admins = signIn.admins
        staff = StaffAdministration(database: database, hasher: hasher)
        account = AccountSecurity(database: database, hasher: hasher)
        twoFactorPolicy = configuration.twoFactorPolicy
        dashboard = DashboardRefresher(database: database, fullEvery: configuration.dashboardFullCountInterval)
        cookies = PanelCookies(secure: configuration.secureCookies)
        reminderHealth = ReminderHealthMonitor(database: database, options: configuration.reminderAlerts,
                                               fullEvery: configuration.reminderFullCountInterval)
        trustedProxies = configuration.trustedProxies
        dashboardRefreshInterval = configuration.dashboardRefreshInterval
        reminderRefreshInterval = configuration.reminderRefreshInterval
        dashboardFullCountInterval = configuration.dashboardFullCountInterval
        sweeper = ExpiredRowSweeper(database: database, sessionPolicy: configuration.sessionPolicy)
        push = configuration.push
        let audience = Audience(frequencyCap: configuration.frequencyCap, providers: configuration.push.configured)
        campaigns = Campaigns(database: database, audience: audience, defaultTimeZone: configuration.defaultTimeZone)
        journeys = Journeys(campaigns: campaigns)
        do {
            templates = try PushTemplateLibrary(folder: URL(fileURLWithPath: configuration.templatesDirectory, isDirectory: true))
            templateProblem = templates.templates.isEmpty ? "There are no templates in \(configuration.templatesDirectory)." : nil
        } catch {
            templates = PushTemplateLibrary()
            templateProblem = "The templates in \(configuration.templatesDirectory) cannot be used: \(error.description)."
        }
        previews = AudiencePreviews(audience: audience, defaultTimeZone: configuration.defaultTimeZone, database: database, templates: templates,
                                    work: backgroundWork)
        campaignProgress = CampaignProgressCache(campaigns: campaigns, work: backgroundWork)
        impact = CampaignImpactTracker(campaigns: campaigns)
        testSend = CampaignTestSend(database: database, push: configuration.push, templates: templates,
                                    testUsers: TestUsers(database: database, audience: audience, domains: configuration.testUserDomains,
                                                         defaultTimeZone: configuration.defaultTimeZone))
        banner = configuration.banner
        eventStreamLength = configuration.eventStreamLength
    }
}
