import Foundation
import TestSupport
import Testing

/// A test that hangs (a lost wake-up, a server that never answers) must fail in minutes, not
/// hold CI for its 90: every suite carries a time limit. Every suite starts at once, so a
/// test's time includes the whole run's: the limit is 10 minutes, the run about 4.
@Suite(.timeLimit(.minutes(20))) struct EverySuiteHasATimeLimit {
    @Test func everySuiteAttributeNamesATimeLimit() throws {
        let tests = TestPaths.repositoryRoot.appendingPathComponent("Tests")
        let files =
            FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var suites = 0
        var without: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite")
            {
                suites += 1
                if !line.contains(".timeLimit(") { without.append("\(file.lastPathComponent):\(index + 1)") }
            }
        }
        #expect(suites > 90, "the suites were found")
        #expect(without.isEmpty, "suites without a time limit: \(without.joined(separator: ", "))")
    }
}
