import AdminDomain
import ArgumentParser

/// `--db`, every benchmark's database. Most write into it (each command's description says
/// what), so they are run on a copy.
struct SeededDatabase: ParsableArguments {
    @Option(help: "Path of a seeded database (`admin-panel seed`); a copy if the benchmark writes into it.")
    var db: String

    func open() async throws -> PanelDatabase { try await PanelDatabase.open(path: db) }
}
