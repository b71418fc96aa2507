import Foundation
import PanelLoad
import TestSupport

/// Runs a command to its end for a test: its exit status, standard output and standard
/// error. Started with `ChildSpawn` and waited for off Swift's
/// cooperative pool: the suite's tests share its two threads, and a test blocked there on a
/// child's pipe stalls every other test.
enum ChildProcess {
    static func run(
        _ executable: URL, _ arguments: [String], input: String? = nil,
        environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await OffThePool.run {
            try runBlocking(executable, arguments, input: input, environment: environment)
        }
    }

    private static func runBlocking(
        _ executable: URL, _ arguments: [String], input: String?, environment: [String: String]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let out = Pipe()
        let err = Pipe()
        let stdin = input.map { _ in Pipe() }
        let child = try ChildSpawn.start(
            executable, arguments, extraEnvironment: environment,
            standardInput: stdin?.fileHandleForReading.fileDescriptor,
            standardOutput: out.fileHandleForWriting.fileDescriptor,
            standardError: err.fileHandleForWriting.fileDescriptor)
        // The child has its own copies: without closing ours the reads below never end.
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        try stdin?.fileHandleForReading.close()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // The commands tests run write little to standard error: one pipe after the other.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        let status = child.waitUntilExit()
        return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
