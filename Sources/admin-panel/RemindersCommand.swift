import AdminDomain
import ArgumentParser
import Foundation

/// The reminder health figures of one range, for cron and incident reviews: exit status 0,
/// or 3 while an alert holds.
struct RemindersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders",
        abstract: "Print the reminder health figures of a database; exit status 3 while an alert holds.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "1h, 24h, 7d or 30d.")
    var range = "24h"

    func validate() throws {
        if ReminderRange(rawValue: range) == nil { throw ValidationError(ReminderRange.refusal(range)) }
    }

    func run() async throws {
        guard let range = ReminderRange(rawValue: range) else { throw ValidationError(ReminderRange.refusal(range)) }
        let snapshot = try await reportingErrors {
            try await ReminderHealthMonitor(database: try await database.open()).snapshot()
        }
        for line in ReminderHealthSummary.lines(snapshot, range: range) { say(line) }
        if !snapshot.alerts.isEmpty { throw ExitCode(3) }
    }
}
