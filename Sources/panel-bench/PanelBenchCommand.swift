import ArgumentParser
import Foundation

/// The panel's benchmarks, apart from the product: each prints its own figures. Build in
/// release first.
@main
struct PanelBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "panel-bench",
        abstract: "Benchmarks of the admin panel: on a seeded database, and of the push clients.",
        subcommands: [
            SupportCommand.self, LoadCommand.self, PushBenchCommand.self, PushFakeCommand.self,
            CampaignBenchCommand.self, DashboardBenchCommand.self, PreviewsCommand.self, ImpactBenchCommand.self,
            SearchBenchCommand.self, RemindersBenchCommand.self, JourneysBenchCommand.self, UsualHoursBenchCommand.self,
            FirstMinuteCommand.self, ExportsBenchCommand.self,
        ])
}

/// Printed and flushed at once: the figures must reach a pipe even if a later step hangs.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
