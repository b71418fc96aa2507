import Foundation

/// The real `admin-panel serve` in a process of its own, as production runs it: started on
/// a free port, stopped with SIGTERM, its exit code and output kept.
public final class PanelProcess {
    public let port: Int
    public let logFile: URL
    private let process: ChildSpawn

    private init(process: ChildSpawn, port: Int, logFile: URL) {
        self.process = process
        self.port = port
        self.logFile = logFile
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The process's resident memory now and at its peak, in MiB, from /proc (Linux).
    public var memory: (resident: Double, peak: Double)? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        func kibibytes(_ field: String) -> Double? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { Double($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        }
        guard let resident = kibibytes("VmRSS"), let peak = kibibytes("VmHWM") else { return nil }
        return (resident / 1024, peak / 1024)
    }
    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Starts `binary serve --db PATH --port 0` and waits until it says where it listens.
    public static func start(
        binary: URL, databasePath: String, publicDirectory: String?,
        arguments: [String] = [], environment extra: [String: String] = [:],
        workingDirectory: URL? = nil, logFile: URL
    ) async throws -> PanelProcess {
        let arguments =
            ["serve", "--db", databasePath, "--port", "0"] + (publicDirectory.map { ["--public-directory", $0] } ?? [])
            + arguments
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        let process = try ChildSpawn.start(
            binary, arguments, extraEnvironment: extra, workingDirectory: workingDirectory,
            standardOutput: log.fileDescriptor, standardError: log.fileDescriptor)
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(60)
        while clock.now < giveUp {
            let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            if let port = port(after: "panel listening on", in: text) {
                return PanelProcess(process: process, port: port, logFile: logFile)
            }
            if let status = process.terminationStatus { throw PanelProcessError.exited(status: status, output: text) }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.signal(SIGTERM)
        throw PanelProcessError.neverListened(output: (try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
    }

    /// The port in the first log line that says `marker` and then HOST:PORT.
    public static func port(after marker: String, in log: String) -> Int? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(marker) }),
            let markerRange = line.range(of: marker)
        else { return nil }
        let address = line[markerRange.upperBound...].drop { $0 == " " }.prefix { $0 != " " && $0 != "\"" }
        guard let colon = address.lastIndex(of: ":") else { return nil }
        return Int(address[address.index(after: colon)...].prefix { $0.isNumber })
    }

    /// SIGTERM, then the exit code; nil if it is still running after `within` (it is then
    /// killed, so that a failing test leaves nothing behind).
    public func terminate(within: Duration) async throws -> Int32? {
        sendTerminate()
        return try await exitCode(within: within)
    }

    public func sendTerminate() {
        process.signal(SIGTERM)
    }

    /// SIGKILL: no shutdown at all, as a crash or an out-of-memory kill.
    public func sendKill() {
        process.signal(SIGKILL)
    }

    public func exitCode(within: Duration) async throws -> Int32? {
        let clock = ContinuousClock()
        let giveUp = clock.now + within
        while process.isRunning, clock.now < giveUp {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard let status = process.terminationStatus else {
            process.signal(SIGKILL)
            return nil
        }
        return status
    }
}

public enum PanelProcessError: Error, CustomStringConvertible {
    case exited(status: Int32, output: String)
    case neverListened(output: String)

    public var description: String {
        switch self {
        case .exited(let status, let output): "the panel exited with \(status) before listening:\n\(output)"
        case .neverListened(let output): "the panel did not listen within 60 s:\n\(output)"
        }
    }
}
