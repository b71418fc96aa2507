import AdminDomain
import AdminWeb
import ArgumentParser
import Foundation

/// Staff accounts from the command line: the first admin, and recovery when nobody can sign in.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manage staff accounts.",
        subcommands: [
            CreateAdmin.self, ListAdmins.self, DisableAdmin.self, ResetAdminPassword.self, ResetAdminTwoFactor.self,
            UnlockSignIn.self,
        ])
}

extension Role: ExpressibleByArgument {}

/// The account a command acts on.
struct AccountOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOption

    @Option(help: "Email address of the account.")
    var email: String

    var account: AccountReference { .email(email) }

    /// One staff use case on the account; the sentence it returns is printed.
    func change(_ body: (StaffAdministration) async throws -> String) async throws {
        try await reportingErrors { say(try await body(try await database.staff())) }
    }
}

struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a staff account; the password is read from standard input.")

    @OptionGroup var account: AccountOptions

    @Option(help: "support, marketing or admin.")
    var role: Role

    func run() async throws {
        try await account.change { staff in
            let password = try readPassword(prompt: "password (at least \(PasswordPolicy.minimumLength) characters): ")
            let admin = try await staff.create(
                email: account.email, password: password, role: role, oneTime: false, by: .commandLine)
            return "created \(role.rawValue) account \(admin.email)"
        }
    }
}

struct ListAdmins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the staff accounts.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        try await reportingErrors {
            for account in try await database.staff().accounts() {
                let admin = account.admin
                let state = admin.disabledAt.map { "disabled since \($0)" } ?? "active"
                let twoFactor = account.hasTwoFactor ? "two-factor on" : "two-factor off"
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
        try await account.change { staff in
            let admin = try await staff.disable(account.account, by: .commandLine)
            return "disabled \(admin.email); its sessions have ended"
        }
    }
}

struct ResetAdminPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Set a new password (read from standard input) and end the account's sessions.")

    @OptionGroup var account: AccountOptions

    func run() async throws {
        try await account.change { staff in
            let password = try readPassword(
                prompt: "new password (at least \(PasswordPolicy.minimumLength) characters): ")
            let admin = try await staff.resetPassword(account.account, to: password, oneTime: false, by: .commandLine)
            return "new password set for \(admin.email); its sessions have ended"
        }
    }
}

struct ResetAdminTwoFactor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-two-factor",
        abstract: "Remove the account's two-factor key and recovery codes (a lost phone) and end its sessions.")

    @OptionGroup var account: AccountOptions

    func run() async throws {
        try await account.change { staff in
            let admin = try await staff.resetTwoFactor(account.account, by: .commandLine)
            // The serving panel's policy is not known here: say what each case does.
            return "two-factor reset for \(admin.email); its sessions have ended; "
                + (TwoFactorPolicy().isRequired(for: admin.role)
                    ? "it is set up again at the next sign-in"
                    : "its role signs in without one unless the panel requires a second factor for everyone, "
                        + "so it is asked to set one up only then")
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

/// Lifts sign-in locks and delays when no admin can sign in to do it on the page (a lock
/// behind a misconfigured proxy, say). Each lifted count is audited with "cli" as the actor.
struct UnlockSignIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Lift sign-in locks and delays: of one account, of one address, or all.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Lift the counts of this account, from every address.")
    var email: String?

    @Option(help: "Lift the counts of this client address, for every account.")
    var address: String?

    @Flag(help: "Lift every count.")
    var all = false

    func validate() throws {
        guard [email != nil, address != nil, all].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --email, --address or --all")
        }
    }

    func run() async throws {
        try await reportingErrors {
            // An address as the throttle keeps it, however it was typed (case, brackets, zeros).
            let which: LoginThrottle.Unlock =
                if let email { .email(email) } else if let address {
                    .address(TrustedProxies.canonicalAddress(address) ?? address)
                } else { .all }
            let throttle = LoginThrottle(database: try await database.open())
            let lifted = try await throttle.unlock(which, by: .commandLine)
            say(
                lifted.isEmpty
                    ? "nothing to lift: no count in force matches"
                    : "lifted \(lifted.count): " + lifted.map(\.description).joined(separator: ", "))
        }
    }
}
