import Foundation
import TestSupport
import Testing

/// SQL goes from one function to another as GRDB's `SQL` (each value bound where it is
/// written) or stays inside a named query type that owns its text. A `func` or `init` of the
/// domain taking SQL as text (`sql: String`, `setting extra: String`, `where condition:
/// String`, `columns: String`, …) fails here, except in the files listed with their reason.
@Suite(.timeLimit(.minutes(20))) struct NoSQLTextParameters {
    /// Files of named query types that keep raw SQL text, and why.
    static let allowed: [String: String] = [
        "DashboardScan.swift":
            "hot scans of the app's tables: one constant text per scan, rows read raw, read after read",
        "DashboardScan+Small.swift":
            "the same scans walked by time: the table and columns are the scan's own constants",
        "SQLCondition.swift": "a condition's text is a StaticString, fixed when the panel is compiled",
    ]

    /// A parameter whose label or name says it holds SQL.
    static var sqlWords: Regex<Substring> {
        #/(?i)sql|setting|extra|condition|clause|fragment|where|query|columns|table|select|order|join/#
    }
    static let textTypes: Set<String> = ["String", "String?", "[String]", "StaticString", "Substring"]

    /// Every parameter list of a `func` or `init` declared in `text` (calls such as `.init(` left out).
    static func parameterLists(in text: String) -> [String] {
        var lists: [String] = []
        for match in text.matches(of: #/(?:\bfunc\s+[^\s(<]+|\binit[?!]?)(?:<[^>]*>)?\(/#) {
            if match.range.lowerBound > text.startIndex, text[text.index(before: match.range.lowerBound)] == "." {
                continue
            }
            var depth = 1
            var index = match.range.upperBound
            var list = ""
            while index < text.endIndex, depth > 0 {
                let character = text[index]
                if character == "(" || character == "[" {
                    depth += 1
                } else if character == ")" || character == "]" {
                    depth -= 1
                }
                if depth > 0 { list.append(character) }
                index = text.index(after: index)
            }
            lists.append(list)
        }
        return lists
    }

    /// The parameters of a list that take SQL as text, as written.
    static func offences(inList list: String) -> [String] {
        var parameters: [String] = []
        var current = ""
        var depth = 0
        var previous: Character = " "
        for character in list {
            // A closure type's `->` closes nothing.
            if "([<".contains(character) {
                depth += 1
            } else if ")]>".contains(character), !(character == ">" && previous == "-") {
                depth -= 1
            }
            previous = character
            if character == ",", depth == 0 {
                parameters.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parameters.append(current)
        return parameters.compactMap { parameter in
            guard let colon = parameter.firstIndex(of: ":") else { return nil }
            let names = parameter[..<colon]
            var type =
                parameter[parameter.index(after: colon)...].split(separator: "=", maxSplits: 1).first.map(String.init)
                ?? ""
            type = type.trimmingCharacters(in: .whitespacesAndNewlines)
            for attribute in ["inout ", "borrowing ", "consuming ", "@escaping "] where type.hasPrefix(attribute) {
                type = String(type.dropFirst(attribute.count)).trimmingCharacters(in: .whitespaces)
            }
            guard textTypes.contains(type), names.contains(sqlWords) else { return nil }
            return parameter.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func offences(in text: String, file: String) -> [String] {
        parameterLists(in: text).flatMap { offences(inList: $0) }.map { "\(file): \($0)" }
    }

    @Test func theMatcherFindsWhatItShould() {
        #expect(
            Self.offences(
                in:
                    "func apply(to id: Int64, by actor: AuditActor, setting extra: String = \"\", _ arguments: "
                    + "StatementArguments = []) throws",
                file: "a"
            ).count == 1)
        #expect(
            Self.offences(
                in:
                    "func walk(_ sql: String, after start: Int64, each: @escaping @Sendable (RawRow) "
                    + "-> Void) async throws -> Int64",
                file: "a"
            ).count == 1)
        #expect(
            Self.offences(
                in:
                    "private func deleteInBatches(from table: String,\n    where condition: String, arguments: "
                    + "StatementArguments) async throws -> Int",
                file: "a"
            ).count == 2)
        #expect(Self.offences(in: "static func emailPrefixSQL(columns: String) -> String {", file: "a").count == 1)
        #expect(
            Self.offences(
                in: "init(_ sql: StaticString, _ arguments: [String: any DatabaseValueConvertible] = [:]) {", file: "a"
            ).count == 1)
        #expect(
            Self.offences(in: "func apply(to id: Int64, setting extra: SQL = \"\") throws -> CampaignStatus", file: "a")
                .isEmpty)
        #expect(Self.offences(in: "func find(email: String, in db: Database) throws -> Admin?", file: "a").isEmpty)
        #expect(Self.offences(in: "let condition = SQLCondition.init(sql: text)", file: "a").isEmpty)
    }

    @Test func theDomainPassesNoSQLAsText() throws {
        let folder = TestPaths.repositoryRoot.appendingPathComponent("Sources/AdminDomain")
        let urls =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var found: [String] = []
        for url in urls where Self.allowed[url.lastPathComponent] == nil {
            found += Self.offences(in: try String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
        }
        #expect(urls.count > 100, "the sources were found")
        let names = Set(urls.map(\.lastPathComponent))
        #expect(
            Self.allowed.keys.filter { !names.contains($0) }.isEmpty,
            "an allowed file that is gone: drop it from the list")
        #expect(
            found.isEmpty,
            "SQL passed as text (take `SQL`, or keep it inside a named query type): \(found.joined(separator: "; "))")
    }
}
