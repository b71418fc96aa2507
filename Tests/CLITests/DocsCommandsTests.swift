import Foundation
import TestSupport
import Testing

/// The commands that README.md and docs/*.md show, checked against the built binaries, so
/// that the docs cannot name a command or an option that no longer exists.
///
/// The rules, kept simple on purpose:
/// - Only fenced code blocks whose language is `sh` or `bash` are read. Configuration
///   (```nginx, ```caddyfile) and any other block are skipped.
/// - A line ending in `\` goes on on the next line. An unquoted `#` at the start of a word
///   begins a comment that runs to the end of the line.
/// - A line is cut into commands at unquoted `|`, `&` and `;` (so `&&` and `||` too).
///   Quotes group words and are dropped.
/// - A command is a panel command when its first word (after any `NAME=value` words) is
///   `admin-panel` or `panel-bench`, or a path ending in one (`.build/release/admin-panel`),
///   or `swift run` followed by its own options (`-c release`) and one of the two. Every
///   other command (`swift test`, `cp`, `apt-get`, `curl`, `sqlite3`) is skipped.
/// - Its subcommands are the words after the binary up to the first that is not a plain
///   lower-case word (an option, a path, a value). Its options are the words that start
///   with `--` (cut at `=`, brackets dropped).
///
/// Each command is run as `BINARY SUBCOMMANDS… --help`, once per distinct subcommand path:
/// it must exit 0, its usage line must name those subcommands (for an unknown subcommand
/// ArgumentParser prints its parent's help and still exits 0), and its help must list every
/// option the docs give it.
@Suite(.timeLimit(.minutes(20))) struct DocsCommands {
    static let binaries: Set<String> = ["admin-panel", "panel-bench"]

    /// One panel command as the docs write it.
    struct DocumentedCommand: Sendable {
        var binary: String
        var subcommands: [String]
        var options: [String]
        /// "docs/operations.md:42"
        var source: String
    }

    /// A shell line of a page, its continuations joined, and where it starts.
    struct ShellLine: Sendable {
        var number: Int
        var text: String
    }

    // MARK: The tests

    @Test func everyCommandInTheDocsExistsWithTheOptionsItNames() async throws {
        let commands = try Self.documentedCommands()
        try #require(!commands.isEmpty, "no admin-panel or panel-bench command found in README.md or docs/*.md")

        // One run per binary and subcommand path, with every option any line gives it.
        var paths: [String: (command: DocumentedCommand, options: Set<String>, sources: [String])] = [:]
        for command in commands {
            let key = ([command.binary] + command.subcommands).joined(separator: " ")
            var entry = paths[key] ?? (command: command, options: Set<String>(), sources: [String]())
            entry.options.formUnion(command.options)
            entry.sources.append(command.source)
            paths[key] = entry
        }
        for (path, entry) in paths.sorted(by: { $0.key < $1.key }) {
            let binary = executable.deletingLastPathComponent().appendingPathComponent(entry.command.binary)
            try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path) is not built")
            let result = try await Self.run(binary, entry.command.subcommands + ["--help"])
            let seenIn = entry.sources.joined(separator: ", ")
            #expect(result.status == 0, "`\(path) --help` exited \(result.status) (\(seenIn)):\n\(result.output)")
            #expect(
                Self.mentions(result.output, "USAGE: \(path)"),
                "`\(path)` is not a command (\(seenIn)); --help printed:\n\(result.output)")
            for option in entry.options.sorted() {
                #expect(Self.mentions(result.output, option), "`\(path)` has no option \(option) (\(seenIn))")
            }
        }
    }

    /// The README's two contract commands, and `.ci/run` running exactly the test command.
    @Test func theReadmeShowsTheContractCommandsAndCIRunsTheTestCommand() throws {
        let testCommand =
            """
            swift format lint --strict --recursive --parallel Sources Tests Package.swift && swift test --skip \
            'CLITests|SlowClientTests|LiveFeedTests' && swift test --filter 'CLITests|SlowClientTests|LiveFeedTests' \
            && python3 -m pytest -q Tests/BrowserTests
            """
        let readme = try Self.page("README.md")
        let lines = Self.shellLines(of: readme).map(\.text)
        #expect(lines.contains("swift run admin-panel demo"))
        #expect(lines.contains(testCommand))

        let ci = try Self.page(".ci/run")
        let lastCommand = ci.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .last(where: { !$0.isEmpty && !$0.hasPrefix("#") })
        #expect(lastCommand == testCommand)
    }

    /// A block without a language would be skipped silently, commands and all.
    @Test func everyCodeBlockNamesItsLanguage() throws {
        for path in try Self.pagePaths() {
            var inBlock = false
            for (index, line) in try Self.page(path).components(separatedBy: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("```") else { continue }
                if !inBlock {
                    #expect(
                        trimmed.count > 3, "\(path):\(index + 1): a code block without a language (sh, bash, nginx, …)")
                }
                inBlock.toggle()
            }
            #expect(!inBlock, "\(path): a code block is not closed")
        }
    }

    // MARK: Reading the docs

    /// README.md, then every Markdown file in docs/, relative to the repository's root.
    static func pagePaths() throws -> [String] {
        let docs = TestPaths.repositoryRoot.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .sorted()
        return ["README.md"] + names.map { "docs/\($0)" }
    }

    static func page(_ path: String) throws -> String {
        try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static func documentedCommands() throws -> [DocumentedCommand] {
        var found: [DocumentedCommand] = []
        for path in try pagePaths() {
            for line in shellLines(of: try page(path)) {
                for words in commands(in: line.text) {
                    guard let (binary, rest) = panelInvocation(words) else { continue }
                    found.append(
                        DocumentedCommand(
                            binary: binary, subcommands: subcommands(rest), options: options(rest),
                            source: "\(path):\(line.number)"))
                }
            }
        }
        return found
    }

    /// The lines of a page's `sh` and `bash` blocks, each with its continuations.
    static func shellLines(of text: String) -> [ShellLine] {
        var lines: [ShellLine] = []
        var inBlock = false
        var isShell = false
        var pending = ""
        var pendingNumber = 0
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if inBlock {
                    inBlock = false
                } else {
                    inBlock = true
                    let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces).lowercased()
                    isShell = language == "sh" || language == "bash"
                }
                pending = ""
                continue
            }
            guard inBlock, isShell else { continue }
            if pending.isEmpty { pendingNumber = index + 1 }
            if trimmed.hasSuffix("\\") {
                pending += String(trimmed.dropLast()) + " "
            } else {
                lines.append(ShellLine(number: pendingNumber, text: pending + trimmed))
                pending = ""
            }
        }
        return lines
    }

    /// A shell line's words, cut into commands at unquoted `|`, `&` and `;`, up to a comment.
    static func commands(in line: String) -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            if character == "#", !inWord { break }
            switch character {
            case "\"", "'":
                quote = character
                inWord = true
            case " ", "\t":
                endWord()
            case "|", "&", ";":
                endCommand()
            default:
                word.append(character)
                inWord = true
            }
        }
        endCommand()
        return commands
    }

    /// The binary a command runs and the words after it, when it is a panel command.
    static func panelInvocation(_ words: [String]) -> (binary: String, rest: [String])? {
        var rest = words[...]
        // Environment assignments before the command: LOG_LEVEL=debug admin-panel …
        while let first = rest.first, first.first?.isLetter == true, first.contains("=") { rest = rest.dropFirst() }
        guard let first = rest.first else { return nil }
        if first == "swift" {
            rest = rest.dropFirst()
            guard rest.first == "run" else { return nil }
            rest = rest.dropFirst()
            // swift run's own options; these take a value.
            while let option = rest.first, option.hasPrefix("-") {
                rest = rest.dropFirst()
                if ["-c", "--configuration", "--scratch-path", "--package-path"].contains(option) {
                    rest = rest.dropFirst()
                }
            }
            guard let product = rest.first, binaries.contains(product) else { return nil }
            return (product, Array(rest.dropFirst()))
        }
        guard let name = first.split(separator: "/").last.map(String.init), binaries.contains(name) else { return nil }
        return (name, Array(rest.dropFirst()))
    }

    /// The leading plain lower-case words: `admin unlock` of `admin unlock --db …`.
    static func subcommands(_ words: [String]) -> [String] {
        Array(
            words.prefix { word in
                word.first?.isLetter == true && word.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }
            })
    }

    /// `--db` of `--db`, `[--one-thread]` and `--log-format=json`.
    static func options(_ words: [String]) -> [String] {
        words.compactMap { word -> String? in
            let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]()"))
            guard bare.hasPrefix("--"), bare.count > 2 else { return nil }
            return String(bare.prefix { $0 != "=" })
        }
    }

    // MARK: Running the binaries

    static func run(_ binary: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(binary, arguments)
        return (result.status, result.stdout + result.stderr)
    }

    /// `term` in `text` as a whole: not followed by a letter, a digit or `-`, so that
    /// `--apns-key` is not found in `--apns-key-id` alone.
    static func mentions(_ text: String, _ term: String) -> Bool {
        var from = text.startIndex
        while let found = text.range(of: term, range: from..<text.endIndex) {
            guard found.upperBound < text.endIndex else { return true }
            let next = text[found.upperBound]
            if !(next.isLetter || next.isNumber || next == "-") { return true }
            from = found.upperBound
        }
        return false
    }
}
