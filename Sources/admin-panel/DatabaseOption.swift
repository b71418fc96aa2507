import AdminDomain
import ArgumentParser

/// `--db`, the app's database every command but `demo` and `seed` works on.
struct DatabaseOption: ParsableArguments {
    @Option(help: "Path of the app's SQLite database.")
    var db: String

    func open() async throws -> PanelDatabase { try await PanelDatabase.open(path: db) }

    /// The staff use cases on the database, with the production hash parameters; every
    /// change is audited with "cli" as the actor.
    func staff() async throws -> StaffAdministration {
        StaffAdministration(database: try await open(), hasher: PasswordHasher(parameters: .owasp))
    }
}
