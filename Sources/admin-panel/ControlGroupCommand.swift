import AdminDomain
import ArgumentParser
import Foundation

/// The global control group from the command line: its share and history, and a new share,
/// through the same use case as the settings page, audited with "cli" as the actor.
struct ControlGroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control-group",
        abstract: "Show or set the global control group's share: users who get no campaign or journey push.",
        subcommands: [ShowControlGroup.self, SetControlGroup.self])
}

struct ShowControlGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "The share in force, then every change: when it took effect, the share, by whom."
    )

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        try await reportingErrors {
            let settings = try await GlobalControl(database: try await database.open()).settings()
            say("share in force: \(settings.percent)%")
            for change in settings.history.reversed() {
                say("\(change.tookEffectAt.text) UTC\t\(change.percent)%\t\(change.by ?? "someone since removed")")
            }
        }
    }
}

struct SetControlGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract:
            """
            Put a new share in force now (whole percent, 0 to 20). Raising it keeps every member and adds users; \
            lowering it releases the members added last.
            """)

    @OptionGroup var database: DatabaseOption

    @Argument(help: "The share, in whole percent from 0 to 20.")
    var percent: String

    func run() async throws {
        try await reportingErrors {
            let control = GlobalControl(database: try await database.open())
            do {
                let share = try GlobalControl.percent(typed: percent).get()
                let change = try await control.set(percent: share, by: .commandLine)
                say("the global control group is \(change.percent)% of users from \(change.tookEffectAt.text) UTC")
            } catch let refusal as GlobalControlRefusal {
                throw fail("nothing changed: \(refusal.description)")
            }
        }
    }
}
