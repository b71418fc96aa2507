import AdminDomain
import AdminWeb
import ArgumentParser
import DemoData
import Foundation

@main
struct AdminPanelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-panel",
        abstract: "The Expiry Tracker back office.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, SeedCommand.self, AdminCommand.self, StatsCommand.self,
            RemindersCommand.self, PushCommand.self,
            JourneysCommand.self, ControlGroupCommand.self,
        ])
}

/// Prints and flushes at once: standard output to a file or pipe is block-buffered, and the
/// demo's one-time password must not sit in a buffer.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Prints one line to standard error and exits non-zero: for errors a person can act on.
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    return ExitCode(1)
}

/// Runs `body`, turning the errors a person can act on into one line and exit code 1.
func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as DatabaseOpenError {
        throw fail(error.description)
    } catch let error as DemoSeedError {
        throw fail(error.description)
    } catch let error as AdminStoreError {
        throw fail(error.description)
    } catch let error as PushTestError {
        throw fail(error.description)
    } catch let error as ExitCode {
        throw error
    } catch {
        throw fail("\(error)")
    }
}
