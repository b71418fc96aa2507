import AdminDomain
import AdminWeb
import ArgumentParser
import Hummingbird

struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Folder of static files (CSS, images, scripts).")
    var publicDirectory = "Public"

    @Flag(help: "Mark the session cookie Secure; use it behind a TLS proxy.")
    var secureCookies = false

    func configuration(databasePath: String) -> PanelConfiguration {
        PanelConfiguration(databasePath: databasePath, host: host, port: port, publicDirectory: publicDirectory,
                           secureCookies: secureCookies)
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the panel on an app database.")

    @Option(help: "Path of the app's SQLite database.")
    var db: String

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let app = try await reportingErrors { try buildApplication(server.configuration(databasePath: db)) }
        try await app.runService()
    }
}
