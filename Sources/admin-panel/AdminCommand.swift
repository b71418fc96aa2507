import AdminDomain
import AdminWeb
import ArgumentParser
import Foundation

struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manage staff accounts.", subcommands: [CreateAdmin.self])
}

extension Role: ExpressibleByArgument {}

struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a staff account; the password is read from standard input.")

    @Option(help: "Path of the app's SQLite database.")
    var db: String

    @Option(help: "Email address of the account.")
    var email: String

    @Option(help: "support, marketing or admin.")
    var role: Role

    func run() async throws {
        try await reportingErrors {
            let database = try PanelDatabase.open(path: db)
            guard let line = readPassword(prompt: "password (at least \(PasswordPolicy.minimumLength) characters): "),
                  !line.isEmpty else {
                throw fail("no password on standard input")
            }
            let services = PanelServices(database: database, configuration: PanelConfiguration(databasePath: db))
            let admin = try await services.admins.create(email: email, password: line, role: role)
            try await services.signIn.audit.append(
                AuditEntry(actor: nil, actorEmail: "cli", clientAddress: nil, action: .adminCreated,
                           target: "admin:\(admin.id ?? 0)", detail: "role=\(role.rawValue)"))
            say("created \(role.rawValue) account \(admin.email)")
        }
    }
}

/// One line from standard input; on a terminal, with the prompt shown and echo off.
func readPassword(prompt: String) -> String? {
    guard isatty(STDIN_FILENO) != 0 else { return readLine(strippingNewline: true) }
    FileHandle.standardError.write(Data(prompt.utf8))
    var original = termios()
    tcgetattr(STDIN_FILENO, &original)
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    defer {
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    return readLine(strippingNewline: true)
}
