import AdminDomain
import AdminWeb
import ArgumentParser
import Foundation

/// Staff accounts from the command line: the first admin, and recovery when nobody can sign in.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manage staff accounts.",
        subcommands: [CreateAdmin.self, ListAdmins.self, DisableAdmin.self, ResetAdminPassword.self, ResetAdminTwoFactor.self])
}

extension Role: ExpressibleByArgument {}

struct DatabaseOption: ParsableArguments {
    @Option(help: "Path of the app's SQLite database.")
    var db: String

    func services() async throws -> PanelServices {
        PanelServices(database: try await PanelDatabase.open(path: db), configuration: PanelConfiguration(databasePath: db))
    }
}

/// The account a command acts on.
struct AccountOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOption

    @Option(help: "Email address of the account.")
    var email: String
}

/// Every change made from the command line is audited, with "cli" as the actor.
func auditFromCLI(_ services: PanelServices, _ action: AuditAction, target: Admin, detail: String? = nil) async throws {
    try await services.signIn.audit.append(AuditEntry(
        actor: nil, actorEmail: "cli", clientAddress: nil, action: action, target: "admin:\(target.id ?? 0)", detail: detail))
}

struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a staff account; the password is read from standard input.")

    @OptionGroup var account: AccountOptions

    @Option(help: "support, marketing or admin.")
    var role: Role

    func run() async throws {
        try await reportingErrors {
            let services = try await account.database.services()
            let password = try readPassword(prompt: "password (at least \(PasswordPolicy.minimumLength) characters): ")
            let admin = try await services.admins.create(email: account.email, password: password, role: role)
            try await auditFromCLI(services, .adminCreated, target: admin, detail: "role=\(role.rawValue)")
            say("created \(role.rawValue) account \(admin.email)")
        }
    }
}

struct ListAdmins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the staff accounts.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        try await reportingErrors {
            let services = try await database.services()
            let withTwoFactor = try await services.signIn.twoFactor.enabledAdminIDs()
            for admin in try await services.admins.list() {
                let state = admin.disabledAt.map { "disabled since \($0)" } ?? "active"
                let twoFactor = admin.id.map(withTwoFactor.contains) == true ? "two-factor on" : "two-factor off"
                say("\(admin.email)\t\(admin.role.rawValue)\t\(state)\t\(twoFactor)\tcreated \(admin.createdAt)")
            }
        }
    }
}

struct DisableAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Disable a staff account and end its sessions at once.")

    @OptionGroup var account: AccountOptions

    func run() async throws {
        try await reportingErrors {
            let services = try await account.database.services()
            let admin = try await services.admins.disable(email: account.email)
            try await auditFromCLI(services, .adminDisabled, target: admin)
            say("disabled \(admin.email); its sessions have ended")
        }
    }
}

struct ResetAdminPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Set a new password (read from standard input) and end the account's sessions.")

    @OptionGroup var account: AccountOptions

    func run() async throws {
        try await reportingErrors {
            let services = try await account.database.services()
            let password = try readPassword(prompt: "new password (at least \(PasswordPolicy.minimumLength) characters): ")
            try await services.admins.resetPassword(email: account.email, to: password)
            if let admin = try await services.admins.find(email: account.email) {
                try await auditFromCLI(services, .passwordReset, target: admin)
            }
            say("new password set for \(account.email.trimmingCharacters(in: .whitespacesAndNewlines)); its sessions have ended")
        }
    }
}

struct ResetAdminTwoFactor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-two-factor",
        abstract: "Remove the account's two-factor key and recovery codes (a lost phone) and end its sessions.")

    @OptionGroup var account: AccountOptions

    func run() async throws {
        try await reportingErrors {
            let services = try await account.database.services()
            let email = account.email.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let admin = try await services.admins.find(email: email), let id = admin.id else {
                throw AdminStoreError.notFound(email)
            }
            try await services.signIn.twoFactor.remove(adminID: id, endingSessions: true)
            try await auditFromCLI(services, .twoFactorReset, target: admin)
            say("two-factor reset for \(admin.email); its sessions have ended; it is set up again at the next sign-in")
        }
    }
}

/// One line from standard input; on a terminal, with the prompt shown and echo off.
func readPassword(prompt: String) throws -> String {
    let line: String?
    if isatty(STDIN_FILENO) != 0 {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        line = readLine(strippingNewline: true)
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        FileHandle.standardError.write(Data("\n".utf8))
    } else {
        line = readLine(strippingNewline: true)
    }
    guard let line, !line.isEmpty else { throw fail("no password on standard input") }
    return line
}
