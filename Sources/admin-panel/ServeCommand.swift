import AdminDomain
import AdminWeb
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Prometheus

enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Folder of static files (CSS, images, scripts); by default the copy built into the panel.")
    var publicDirectory: String?

    @Flag(help: "Served over TLS (behind a TLS proxy): Secure __Host- cookies and HSTS.")
    var secureCookies = false

    @Flag(help: "Require two-factor sign-in of every role, not only of admins.")
    var requireTwoFactor = false

    @Option(help: "Minutes without a request after which a session ends.")
    var idleMinutes = 30

    @Option(help: "Hours after sign-in after which a session ends, however busy.")
    var absoluteHours = 12

    @Option(help: "Seconds after SIGTERM or SIGINT within which the panel exits, even with requests still open.")
    var shutdownSeconds = 10

    @Option(help: "Serve Prometheus metrics at http://127.0.0.1:PORT/metrics (0: any free port). None without it.")
    var metricsPort: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical (default: $LOG_LEVEL, else info).")
    var logLevel: String?

    @Option(help: "text, or json for log shippers.")
    var logFormat: LogFormat = .text

    @Option(help: "Folder of push message templates (NAME.LANG.mustache); by default the copy built into the panel.")
    var templates: String?

    @Option(help: "Timezone for campaign recipients whose own timezone is not one (an IANA name).")
    var defaultTimezone = "UTC"

    @Option(help: "Campaign pushes a user may get in 7 days.")
    var frequencyCap = 2

    @Option(
        name: .customLong("test-user-domain"),
        help:
            """
            An email domain (repeatable) whose app users marketing may add as test users, such as the staff's own. \
            None: only admins add test users.
            """
    )
    var testUserDomain: [String] = []

    @Option(help: "Seconds between the dashboard's refreshes, which read the rows added since the last one.")
    var dashboardRefresh = 60

    @Option(help: "Seconds between the dashboard's full counts, which see changed and deleted rows too.")
    var dashboardFullCount = 900

    @Option(help: "Seconds between the reminder health refreshes, which re-read the reminders of the last 26 hours.")
    var reminderRefresh = 30

    @Option(
        help:
            "Seconds between the journeys' evaluations, which enter the users who crossed a trigger since the last one."
    )
    var journeyInterval = 60

    @Option(
        help:
            """
            Seconds between the usual-hour refreshes, which read the app's new activity events into each user's hours \
            (default 3600; the demo's 60). The first run builds every user's hours, in chunks.
            """
    )
    var usualHourInterval: Int?

    @Option(
        help:
            """
            Percent of the last hour's due reminders sent on time under which the reminder alert holds (SC-002's \
            target).
            """
    )
    var reminderOnTimeTarget = 90.0

    @Option(
        help:
            """
            Percent of the last hour's reminders sent of those sent or failed under which the reminder alert holds \
            (SC-011's target).
            """
    )
    var reminderSuccessTarget = 95.0

    @Option(help: "Overdue reminders in the last hour above which the reminder alert holds.")
    var reminderOverdueThreshold = 50

    @Option(
        help:
            "Minutes without a new row in the app's tables after which the banner says the backend has stopped writing."
    )
    var appDataSilenceMinutes = 60

    @Option(help: "Connections open at once; more are closed at once, with a log line.")
    var maxConnections = 4_000

    @Option(
        help:
            """
            Connections open at once from one client address (the TCP peer: behind a proxy, the proxy); more from it \
            are closed at once, with a log line.
            """
    )
    var maxConnectionsPerAddress = 256

    @Option(help: "CSV exports being written at once, all staff together; more are refused with 429 and Retry-After.")
    var maxExports = 4

    @Option(help: "CSV exports being written at once for one staff member; more are refused with 429 and Retry-After.")
    var maxExportsPerStaff = 2

    @Option(
        help:
            """
            Seconds a client has to send a request's head, from connecting or from the previous answer (so also the \
            idle and keep-alive limit).
            """
    )
    var requestTimeout = 30

    @Option(help: "Seconds a client has to send a request's body after its head.")
    var bodyTimeout = 30

    @Option(
        name: .customLong("trusted-proxy"),
        help:
            """
            A proxy (IP address or CIDR range, repeatable) whose Forwarded or X-Forwarded-For header names the \
            client; also $PANEL_TRUSTED_PROXIES, comma-separated. None by default: those headers are ignored.
            """
    )
    var trustedProxy: [String] = []

    @Option(
        help:
            """
            The header the trusted proxies write: x-forwarded-for (nginx, Caddy) or forwarded (RFC 7239); also \
            $PANEL_FORWARDED_HEADER. Only that one is read.
            """
    )
    var forwardedHeader: String?

    /// --trusted-proxy, and $PANEL_TRUSTED_PROXIES; a value that is no address or range is refused.
    func trustedProxies() throws -> TrustedProxies {
        let environment = ProcessInfo.processInfo.environment
        let fromEnvironment = (environment["PANEL_TRUSTED_PROXIES"] ?? "").split(separator: ",").map(String.init)
        let headerName =
            (forwardedHeader ?? environment["PANEL_FORWARDED_HEADER"] ?? TrustedProxies.Header.xForwardedFor.rawValue)
            .lowercased()
        guard let header = TrustedProxies.Header(rawValue: headerName) else {
            throw ValidationError("--forwarded-header is \"\(headerName)\"; it must be x-forwarded-for or forwarded")
        }
        do {
            return try TrustedProxies(trustedProxy + fromEnvironment, header: header)
        } catch {
            throw ValidationError("--trusted-proxy: \(error.description)")
        }
    }

    /// --test-user-domain, each a domain such as corp.example.com: one that is not is one line
    /// on standard error and exit code 1, before anything starts.
    func testUserDomains() throws -> TestUserDomains {
        do {
            return try TestUserDomains(testUserDomain)
        } catch {
            throw fail(error.description)
        }
    }

    /// The level from --log-level, else LOG_LEVEL, else info; an unknown name is refused.
    func level() throws -> Logger.Level {
        let name = logLevel ?? ProcessInfo.processInfo.environment["LOG_LEVEL"]
        guard let name, !name.isEmpty else { return .info }
        guard let level = Logger.Level(rawValue: name.lowercased()) else {
            let source = logLevel == nil ? "LOG_LEVEL" : "--log-level"
            throw ValidationError(
                "\(source) is \"\(name)\"; it must be one of trace, debug, info, notice, warning, error, critical")
        }
        return level
    }

    mutating func validate() throws {
        _ = try level()
        _ = try trustedProxies()
        try check(maxConnections, 16...1_000_000, "--max-connections must be from 16 to 1000000")
        try check(maxConnectionsPerAddress, 1...1_000_000, "--max-connections-per-address must be from 1 to 1000000")
        try check(maxExports, 1...1_000, "--max-exports must be from 1 to 1000")
        try check(maxExportsPerStaff, 1...1_000, "--max-exports-per-staff must be from 1 to 1000")
        try check(requestTimeout, 1...3_600, "--request-timeout must be from 1 to 3600 seconds")
        try check(bodyTimeout, 1...3_600, "--body-timeout must be from 1 to 3600 seconds")
        if let metricsPort { try check(metricsPort, 0...65_535, "--metrics-port must be from 0 to 65535") }
        if metricsPort != nil, metricsPort == port, port != 0 {
            throw ValidationError("--metrics-port must differ from --port")
        }
        if TimeZone(identifier: defaultTimezone) == nil {
            throw ValidationError("--default-timezone \"\(defaultTimezone)\" is not a timezone, such as Europe/Lisbon")
        }
        try check(frequencyCap, 1...50, "--frequency-cap must be from 1 to 50")
        try check(dashboardRefresh, 1...86_400, "--dashboard-refresh must be from 1 to 86400 seconds")
        try check(dashboardFullCount, 10...86_400, "--dashboard-full-count must be from 10 to 86400 seconds")
        try check(reminderRefresh, 1...3_600, "--reminder-refresh must be from 1 to 3600 seconds")
        try check(journeyInterval, 1...3_600, "--journey-interval must be from 1 to 3600 seconds")
        if let usualHourInterval {
            try check(usualHourInterval, 1...86_400, "--usual-hour-interval must be from 1 to 86400 seconds")
        }
        try check(reminderOnTimeTarget, 0...100, "--reminder-on-time-target must be a percent from 0 to 100")
        try check(reminderSuccessTarget, 0...100, "--reminder-success-target must be a percent from 0 to 100")
        try check(
            reminderOverdueThreshold, 0...10_000_000,
            "--reminder-overdue-threshold must be from 0 to 10000000 reminders")
        try check(appDataSilenceMinutes, 1...10_080, "--app-data-silence-minutes must be from 1 to 10080 (a week)")
        try checkFolder(templates, "--templates")
        try checkFolder(publicDirectory, "--public-directory")
    }

    private func check<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>, _ refusal: String) throws {
        if !range.contains(value) { throw ValidationError(refusal) }
    }

    private func checkFolder(_ path: String?, _ option: String) throws {
        var isFolder: ObjCBool = false
        if let path, !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) || !isFolder.boolValue {
            throw ValidationError("\(option) \"\(path)\" is not a folder")
        }
    }

    /// Sets up logging and, with --metrics-port, the metrics backend: once, before anything logs.
    func bootstrap() throws -> PrometheusCollectorRegistry? {
        let level = try level()
        switch logFormat {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardOutput(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
        return metricsPort == nil ? nil : PanelMetrics.bootstrap()
    }

    func configuration(databasePath: String) -> PanelConfiguration {
        var configuration = PanelConfiguration(
            databasePath: databasePath, host: host, port: port, publicDirectory: publicDirectory,
            sessionPolicy: SessionPolicy(
                idleTimeout: TimeInterval(max(1, idleMinutes) * 60),
                absoluteTimeout: TimeInterval(max(1, absoluteHours) * 3600)),
            secureCookies: secureCookies,
            twoFactorPolicy: TwoFactorPolicy(requiredForAll: requireTwoFactor),
            shutdownDeadline: .seconds(max(1, shutdownSeconds)),
            metricsPort: metricsPort,
            logLevel: (try? level()) ?? .info)
        if let templates { configuration.templatesDirectory = templates }
        configuration.defaultTimeZone = defaultTimezone
        configuration.frequencyCap = frequencyCap
        configuration.dashboardRefreshInterval = TimeInterval(dashboardRefresh)
        configuration.dashboardFullCountInterval = TimeInterval(dashboardFullCount)
        configuration.trustedProxies = (try? trustedProxies()) ?? .none
        configuration.reminderRefreshInterval = .seconds(reminderRefresh)
        configuration.journeyInterval = .seconds(journeyInterval)
        configuration.usualHourInterval = .seconds(usualHourInterval ?? 3_600)
        configuration.reminderAlerts.onTimeTarget = reminderOnTimeTarget / 100
        configuration.reminderAlerts.successTarget = reminderSuccessTarget / 100
        configuration.reminderAlerts.overdueThreshold = reminderOverdueThreshold
        configuration.reminderAlerts.appDataSilence = TimeInterval(appDataSilenceMinutes * 60)
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.maxExports = maxExports
        configuration.maxExportsPerStaff = maxExportsPerStaff
        configuration.headTimeout = .seconds(requestTimeout)
        configuration.bodyTimeout = .seconds(bodyTimeout)
        return configuration
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the panel on an app database.")

    @OptionGroup var database: DatabaseOption

    @OptionGroup var server: ServerOptions

    @OptionGroup(title: "Push providers") var push: PushOptions

    func run() async throws {
        let domains = try server.testUserDomains()
        let metrics = try server.bootstrap()
        var configuration = server.configuration(databasePath: database.db)
        configuration.testUserDomains = domains
        configuration.push = try await push.providers(logger: Logger(label: "push"))
        let (app, areas) = try await reportingErrors { try await buildApplication(configuration, metrics: metrics) }
        try await app.runPanel(openRequests: areas.site.openRequests, shutdownDeadline: configuration.shutdownDeadline)
    }
}
