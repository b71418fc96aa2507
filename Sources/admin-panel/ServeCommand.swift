import AdminDomain
import AdminWeb
import ArgumentParser
import Foundation
import Hummingbird

struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Folder of static files (CSS, images, scripts).")
    var publicDirectory = "Public"

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

    func configuration(databasePath: String) -> PanelConfiguration {
        PanelConfiguration(
            databasePath: databasePath, host: host, port: port, publicDirectory: publicDirectory,
            sessionPolicy: SessionPolicy(idleTimeout: TimeInterval(max(1, idleMinutes) * 60),
                                         absoluteTimeout: TimeInterval(max(1, absoluteHours) * 3600)),
            secureCookies: secureCookies,
            twoFactorPolicy: TwoFactorPolicy(requiredForAll: requireTwoFactor),
            shutdownDeadline: .seconds(max(1, shutdownSeconds)))
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the panel on an app database.")

    @Option(help: "Path of the app's SQLite database.")
    var db: String

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let configuration = server.configuration(databasePath: db)
        let (app, services) = try await reportingErrors { try await buildApplication(configuration) }
        try await app.runPanel(services: services, shutdownDeadline: configuration.shutdownDeadline)
    }
}
