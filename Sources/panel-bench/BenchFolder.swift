import Foundation
import PanelLoad

/// A benchmark's own temporary folder (the servers' logs), removed at the end.
struct BenchFolder {
    let url: URL

    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var serverLog: URL { url.appendingPathComponent("server.log") }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// `binary serve` on the database at a free port, its log in this folder.
    func startPanel(
        _ binary: String, db: String, arguments: [String] = [], environment: [String: String] = [:],
        publicDirectory: String? = nil, log: String = "server.log"
    ) async throws -> PanelProcess {
        try await PanelProcess.start(
            binary: URL(fileURLWithPath: binary), databasePath: db, publicDirectory: publicDirectory,
            arguments: arguments, environment: environment, logFile: url.appendingPathComponent(log))
    }
}
