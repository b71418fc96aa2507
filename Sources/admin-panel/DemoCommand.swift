import AdminDomain
import AdminWeb
import ArgumentParser
import DemoBackend
import DeviceSimulator
import Foundation
import Hummingbird
import Logging
import PanelDemo
import PushClients

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create ./demo.sqlite if absent, make sure an admin exists, and serve on http://127.0.0.1:8080.")

    @Option(help: "Path of the demo database.")
    var db = "demo.sqlite"

    @Option(help: "Users to generate when the database is created.")
    var users = 5_000

    @Flag(
        help:
            """
            The simulated backend sends no reminders: they fall due and stay scheduled, so /reminders and its banner \
            show them overdue.
            """
    )
    var stallReminders = false

    @Option(
        help:
            """
            Seconds after a push (or a campaign's start) that consent is read again for what it cost: the product \
            waits 72 hours; the demo, two minutes, so that a cost shows soon after a send.
            """)
    var consentWindowSeconds = 120

    @OptionGroup var server: ServerOptions

    @OptionGroup(title: "Push providers") var push: PushOptions

    func run() async throws {
        // Marketing can try test users at once: the demo's own domain unless others are given.
        let domains =
            server.testUserDomain.isEmpty
            ? try TestUserDomains([DemoSetup.testUserDomain]) : try server.testUserDomains()
        let metrics = try server.bootstrap()
        var configuration = server.configuration(databasePath: db)
        configuration.testUserDomains = domains
        // The demo's activity is new every minute: its usual hours follow it as often.
        configuration.usualHourInterval = .seconds(server.usualHourInterval ?? 60)
        guard consentWindowSeconds >= 1 else {
            throw ValidationError("--consent-window-seconds must be a whole number of seconds, 1 or more.")
        }
        configuration.consentWindow = TimeInterval(consentWindowSeconds)
        configuration.consentReadInterval = .seconds(min(15, consentWindowSeconds))
        let given = try push.configuration()
        // Without real credentials the demo's pushes go to the device simulator.
        let simulate = given.fcmServiceAccount == nil && given.apnsKey == nil
        if !simulate { configuration.push = try await push.providers(logger: Logger(label: "push")) }
        let (app, areas) = try await reportingErrors {
            if !FileManager.default.fileExists(atPath: db) {
                say("creating \(db) with \(users) demo users…")
            }
            var simulator: DeviceSimulator?
            if simulate {
                let started = try await DeviceSimulator.start(
                    databasePath: db, logger: Logger(label: "device-simulator"))
                configuration.push = try await PushProviders.load(
                    PushConfiguration(
                        fcmServiceAccount: started.fcmServiceAccount, fcmBaseURL: started.baseURL,
                        apnsKey: started.apnsKey,
                        apnsKeyID: DeviceSimulator.apnsKeyID, apnsTeamID: DeviceSimulator.apnsTeamID,
                        apnsTopic: DeviceSimulator.apnsTopic,
                        apnsBaseURL: started.baseURL, extraCAFile: started.caFile), logger: Logger(label: "push"))
                configuration.banner =
                    "Demo: campaign pushes go to the device simulator on \(started.baseURL), never to a real phone."
                simulator = started
            }
            let outcome = try await DemoSetup.prepare(configuration: configuration, users: users)
            if let report = outcome.seedReport {
                say(String(format: "  %d rows in %.1f s", report.totalRows, report.seconds))
            }
            if let password = outcome.adminPassword {
                say(
                    """

                    created the admin account (this password is shown once):
                      email:    \(DemoSetup.adminEmail)
                      password: \(password)

                    admins sign in with a second factor: at the first sign-in the panel shows
                    a QR code for an authenticator app.

                    """)
            }
            if !outcome.rolePasswords.isEmpty {
                say("created accounts for the other roles (passwords shown once; no second factor needed):")
                for account in outcome.rolePasswords {
                    say("  \(account.role.rawValue): \(account.email)  password: \(account.password)")
                }
                say("")
            }
            if let journeys = outcome.journeys {
                if !journeys.active.isEmpty {
                    say(
                        """
                        the demo's journeys, active: \(journeys.active.joined(separator: ", ")); the simulated \
                        backend moves a few users across their triggers every minute
                        """
                    )
                }
                for draft in journeys.drafts { say("left a draft: \(draft)") }
            }
            if let simulator {
                say("pushes go to the device simulator at \(simulator.baseURL); no real phone gets one")
            }
            // The backend's part, with or without the simulator: it writes the app's reminders.
            let backend = SimulatedBackend(
                databasePath: db, stallReminders: stallReminders, logger: Logger(label: "simulated-backend"))
            say(
                stallReminders
                    ? """
                    --stall-reminders: the simulated backend sends no reminders; they fall due, stay scheduled \
                    and turn overdue on /reminders
                    """
                    : """
                    the simulated backend sends reminders as they fall due (most on time, some late, a few \
                    failed); --stall-reminders stops it
                    """
            )
            // With --port 0 the system picks the port: the "panel listening on" line names it.
            say(
                server.port == 0
                    ? "serving on http://\(server.host) at a port the system picks: see \"panel listening on\" below"
                    : "serving on http://\(server.host):\(server.port)")
            return (
                buildApplication(
                    areas: outcome.areas, metrics: metrics,
                    extraServices: simulator.map { [backend, $0] } ?? [backend]), outcome.areas
            )
        }
        try await app.runPanel(openRequests: areas.site.openRequests, shutdownDeadline: configuration.shutdownDeadline)
    }
}
