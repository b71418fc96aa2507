import Foundation
import GRDB
import TestSupport
import Testing

/// Runs `admin-panel` with `input` on standard input (none when nil).
func runPanel(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws
    -> (status: Int32, stdout: String, stderr: String)
{
    try await ChildProcess.run(executable, arguments, input: input, environment: environment)
}

@Suite(.timeLimit(.minutes(20))) struct BadDatabasePaths {
    enum Case: String, CaseIterable {
        case missing, directory, textFile, emptyFile, otherSQLite
    }

    @Test(arguments: Case.allCases)
    func serveAndAdminCreateSayOneLineAndExitNonZero(_ badCase: Case) async throws {
        let temp = try TemporaryDatabase()
        defer { temp.remove() }
        let path: String
        switch badCase {
        case .missing: path = temp.path
        case .directory: path = temp.directory.path
        case .textFile:
            path = temp.path
            try Data("not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        case .emptyFile:
            path = temp.path
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        case .otherSQLite:
            path = temp.path
            try await DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT)") }
        }
        let before = try? Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in [
            ["serve", "--db", path, "--port", "1"],
            ["admin", "create", "--db", path, "--email", "a@b.example", "--role", "admin"],
        ] {
            let result = try await runPanel(arguments)
            #expect(result.status == 1, "\(arguments)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(lines.first?.hasPrefix("error: ") == true)
            #expect(!result.stderr.contains("Fatal") && !result.stderr.contains("Stack"))
            let expected =
                switch badCase {
                case .missing: "database not found"
                case .directory: "not a database file"
                case .textFile: "not an SQLite database"
                case .emptyFile, .otherSQLite: "not an Expiry Tracker database"
                }
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
        #expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == before, "the file is left as it was")
        if badCase == .missing { #expect(!FileManager.default.fileExists(atPath: path)) }
    }

    @Test func seedRefusesADatabaseWithUsers() async throws {
        let temp = try await TemporaryDatabase.seeded(users: 5)
        defer { temp.remove() }
        let result = try await runPanel(["seed", "--db", temp.path, "--users", "5"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: refusing to seed \(temp.path): it already has 5 user(s); pass a new path\n")
    }
}
