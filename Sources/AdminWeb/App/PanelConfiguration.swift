import AdminDomain
import Foundation
import Logging
import PanelAssets
import PushClients

/// Everything `buildApplication` needs; the command line fills it, tests fill it too.
public struct PanelConfiguration: Sendable {
    public var databasePath: String
    public var host: String
    public var port: Int
    /// Folder with the CSS, images and scripts served under /static: by default the copy
    /// built into the panel (`PanelAssets`), so it runs from any working directory.
    public var publicDirectory: String
    public var scrypt: ScryptParameters
    public var maxConcurrentHashes: Int
    public var sessionPolicy: SessionPolicy
    /// How often the dashboard reads the rows added since its last refresh.
    public var dashboardRefreshInterval: TimeInterval
    /// How often the dashboard counts everything again (changed and deleted rows too).
    public var dashboardFullCountInterval: TimeInterval = 900
    /// Mark the session cookie `Secure`: set it when a TLS proxy stands in front.
    public var secureCookies: Bool
    /// Admins always need a second factor; this can require it of everyone.
    public var twoFactorPolicy: TwoFactorPolicy
    /// Prometheus metrics on 127.0.0.1 at this port; none when nil.
    public var metricsPort: Int?
    public var logLevel: Logger.Level
    /// How often expired sessions, challenges and throttle rows are deleted.
    public var sweepInterval: Duration
    /// How often counted unauthenticated events (forged forms, throttled sign-ins) are written.
    public var auditFlushInterval: Duration = .seconds(5)
    /// After SIGTERM, how long requests in flight may take before the process ends anyway.
    public var shutdownDeadline: Duration
    /// The push providers' clients, loaded from their credentials at start; none by default.
    public var push: PushProviders = .none
    /// Where campaign message templates are read from (`NAME.LANG.mustache`): by default
    /// the copy built into the panel, like the static files.
    public var templatesDirectory = PanelAssets.templatesDirectory ?? "Templates"
    /// For recipients whose timezone is not one.
    public var defaultTimeZone = "UTC"
    /// Campaign pushes a user may get in 7 days.
    public var frequencyCap = 2
    /// The email domains marketing may add test users from (`--test-user-domain`); none:
    /// only admins add test users.
    public var testUserDomains = TestUserDomains.none
    /// A line every page shows, such as the demo's "pushes go to the simulator".
    public var banner: String?
    /// How long a launch whose count has gone stale waits for its recount before the page
    /// says "counting again" and reloads itself instead (a small audience takes milliseconds).
    public var recountWait: Duration = .seconds(2)
    /// How often the app's push receipts are read.
    public var receiptPollInterval: Duration = .seconds(1)
    /// How often the campaigns' impact reports read what the apps recorded since.
    public var impactRefreshInterval: Duration = .seconds(2)
    /// How often consent is read again for pushes (and holdout and control members) whose
    /// 72 hours have passed (`ConsentReadings`).
    public var consentReadInterval: Duration = .seconds(300)
    /// How long after a push (or a campaign's start) consent is read again: 72 hours, shorter
    /// only in the demo, where a cost should show within minutes of a send.
    public var consentWindow: TimeInterval = ConsentReadings.window
    /// How often the journeys are evaluated (their new entries queued, old ones expired).
    public var journeyInterval: Duration = .seconds(60)
    /// How often each user's usual hour is refreshed from the app's new activity events.
    public var usualHourInterval: Duration = .seconds(3_600)
    /// How long one live-counts event stream stays open before the browser reconnects.
    public var eventStreamLength: Duration = .seconds(60)
    /// How often the reminder health figures re-read the reminders of the last 26 hours.
    public var reminderRefreshInterval: Duration = .seconds(30)
    /// How often they read the whole 30 days again (late opens of older reminders).
    public var reminderFullCountInterval: TimeInterval = 3_600
    /// The targets and thresholds of the reminder alerts.
    public var reminderAlerts = ReminderAlertOptions()
    /// Proxies whose `Forwarded` / `X-Forwarded-For` name the client (`--trusted-proxy`).
    public var trustedProxies: TrustedProxies = .none
    /// Connections open at once (`--max-connections`); more are closed at once, with a log line.
    public var maxConnections = 4_000
    /// Connections open at once from one TCP peer address (`--max-connections-per-address`);
    /// more from it are closed at once, with a log line. Behind a proxy, the proxy is one address.
    public var maxConnectionsPerAddress = 256
    /// Time to send a request's head, counted from the connection's start or the previous
    /// answer's end, so also the idle and keep-alive limit (`--request-timeout`).
    public var headTimeout: Duration = .seconds(30)
    /// Time from a request's head to the end of its body (`--body-timeout`).
    public var bodyTimeout: Duration = .seconds(30)
    /// CSV exports being written at once, all staff together (`--max-exports`); another is
    /// refused with 429, a sentence and `Retry-After` (issue 46).
    public var maxExports = 4
    /// The same for one staff member (`--max-exports-per-staff`).
    public var maxExportsPerStaff = 2

    public init(
        databasePath: String,
        host: String = "127.0.0.1",
        port: Int = 8080,
        publicDirectory: String? = nil,
        scrypt: ScryptParameters = .owasp,
        maxConcurrentHashes: Int = 2,
        sessionPolicy: SessionPolicy = SessionPolicy(),
        dashboardRefreshInterval: TimeInterval = 60,
        secureCookies: Bool = false,
        twoFactorPolicy: TwoFactorPolicy = TwoFactorPolicy(),
        shutdownDeadline: Duration = .seconds(10),
        sweepInterval: Duration = .seconds(300),
        metricsPort: Int? = nil,
        logLevel: Logger.Level = .info
    ) {
        self.databasePath = databasePath
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory ?? PanelAssets.directory ?? "Public"
        self.scrypt = scrypt
        self.maxConcurrentHashes = maxConcurrentHashes
        self.sessionPolicy = sessionPolicy
        self.dashboardRefreshInterval = dashboardRefreshInterval
        self.secureCookies = secureCookies
        self.twoFactorPolicy = twoFactorPolicy
        self.shutdownDeadline = shutdownDeadline
        self.sweepInterval = sweepInterval
        self.metricsPort = metricsPort
        self.logLevel = logLevel
    }
}
