import AdminDomain
import ArgumentParser
import Foundation

/// Journeys from the command line: the list, and a pause for when nobody can reach the pages
/// (a journey sending what it should not, at night). The same use cases as the pages, audited
/// with "cli" as the actor, as every command's change is.
struct JourneysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journeys", abstract: "List the automated campaigns (journeys) or pause one.",
        subcommands: [ListJourneys.self, PauseJourney.self])
}

struct ListJourneys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "List the journeys, newest first: id, name, trigger, status, users entered, pushes the providers accepted.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Journeys listed at most.")
    var limit = 100

    func validate() throws {
        if !(1...10_000).contains(limit) { throw ValidationError("--limit must be from 1 to 10000") }
    }

    func run() async throws {
        try await reportingErrors {
            let journeys = Journeys(database: try await database.open())
            let records = try await journeys.list(limit: limit)
            if records.isEmpty {
                say("no journeys")
                return
            }
            say(["id", "name", "trigger", "status", "entered", "accepted"].joined(separator: "\t"))
            for journey in records { say(Self.line(journey)) }
        }
    }

    /// One journey, tab-separated. Rules or a status a newer panel wrote are named as such,
    /// not guessed.
    static func line(_ journey: JourneyRecord) -> String {
        let trigger = journey.rules?.trigger.sentence ?? "(rules this version cannot read)"
        let status = journey.status?.rawValue ?? "unknown (\(journey.campaign.status.description))"
        return [
            "\(journey.id)", Self.printable(journey.displayName), trigger, status, "\(journey.entered)",
            "\(journey.campaign.totals.accepted)",
        ]
        .joined(separator: "\t")
    }
}

extension ListJourneys {
    /// A name as the terminal may show it: control and format characters (a tab that would
    /// shift the columns, a right-to-left override that would reorder the line) as U+FFFD.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    [.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
                        ? "\u{FFFD}" : scalar
                }))
    }
}

struct PauseJourney: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract:
            """
            Pause an active journey: nobody more enters, and the pushes still waiting are not sent (their entries \
            exit, \"paused\").
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "The journey's number, as `journeys list` shows it.")
    var id: Int64

    func run() async throws {
        try await reportingErrors {
            let journeys = Journeys(database: try await database.open())
            do {
                try await journeys.pause(id, by: .commandLine)
            } catch let error as CampaignError {
                throw fail(error.description)
            }
            let name = try await journeys.find(id)?.displayName ?? ""
            say("paused journey #\(id) “\(name)”; its waiting pushes will not be sent; resume it on its page")
        }
    }
}
