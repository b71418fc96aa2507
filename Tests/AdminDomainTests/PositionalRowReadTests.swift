import Foundation
import TestSupport
import Testing

/// The panel's rows are read by column name, through each record's `Columns`: a read by
/// position breaks silently when a query's select list changes. A read of an app table may
/// stay positional where that was measured faster, on a line that says so with the marker.
@Suite(.timeLimit(.minutes(20))) struct NoPositionalRowReads {
    static let marker = "// app table: positional, measured faster"

    /// `row[0]`, `row?[1]`, `$0[2]`, `found[0]`, `last[0]`, and `decode(atIndex:)`.
    static func isPositional(_ line: Substring) -> Bool {
        // A regex over every line of the sources takes half a minute in a debug build: only
        // the lines with an index in brackets or `atIndex:` can match.
        guard line.contains("atIndex:") || hasDigitInBrackets(line) else { return false }
        // Simple word boundaries: Unicode's would take `item.row` or `row.decode` for one word.
        return line.contains(
            #/(\brow\??|\$[0-9]+|\bfound\??|\blast\??)\[\s*[0-9]+\s*\]|\b(decode|wholeText)\(atIndex:/#
                .wordBoundaryKind(.simple))
    }

    static func hasDigitInBrackets(_ line: Substring) -> Bool {
        var afterBracket = false
        for byte in line.utf8 {
            if byte == UInt8(ascii: "[") {
                afterBracket = true
            } else if afterBracket && byte != UInt8(ascii: " ") {
                if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return true }
                afterBracket = false
            }
        }
        return false
    }

    static func offences(in text: String, file: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            isPositional(line) && !line.contains(marker)
                ? "\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))" : nil
        }
    }

    @Test func theMatcherFindsWhatItShould() {
        #expect(Self.offences(in: "let id: Int64 = row[0]", file: "a").count == 1)
        #expect(Self.offences(in: ".map { Known(reason: $0[0], recordedAt: $0[1]) }", file: "a").count == 1)
        #expect(Self.offences(in: "return (row?[0] as Int64?) ?? 0", file: "a").count == 1)
        #expect(Self.offences(in: "id: try row.decode(atIndex: 0)", file: "a").count == 1)
        #expect(Self.offences(in: "let time: String = self.row[1]", file: "a").count == 1)
        #expect(Self.offences(in: "let day = parts[0]; let id = row[Columns.id]", file: "a").isEmpty)
        #expect(Self.offences(in: "self.event(user: row[0], time: row[1]) \(Self.marker)", file: "a").isEmpty)
    }

    @Test func theDomainAndTheDispatcherReadRowsByName() throws {
        let sources = TestPaths.repositoryRoot.appendingPathComponent("Sources")
        var files = 0
        var found: [String] = []
        for target in ["AdminDomain", "CampaignDispatch"] {
            let folder = sources.appendingPathComponent(target)
            let urls =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for url in urls {
                files += 1
                found += Self.offences(
                    in: try String(contentsOf: url, encoding: .utf8), file: "\(target)/\(url.lastPathComponent)")
            }
        }
        #expect(files > 100, "the sources were found")
        #expect(
            found.isEmpty,
            "read by position (name the column, or mark a measured app-table read): \(found.joined(separator: "; "))")
    }
}
