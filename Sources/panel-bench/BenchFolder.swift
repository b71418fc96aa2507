import Foundation

/// A benchmark's own temporary folder (the server's log), removed at the end.
struct BenchFolder {
    let url: URL

    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var serverLog: URL { url.appendingPathComponent("server.log") }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
