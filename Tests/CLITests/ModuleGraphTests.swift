import Foundation
import PanelLoad
import TestSupport
import Testing

/// The module graph as the manifest declares it (`swift package dump-package`), so that a
/// dependency added in the wrong place fails here instead of passing unnoticed.
@Suite(.timeLimit(.minutes(20))) struct ModuleGraph {
    struct Target: Decodable {
        let name: String
        let type: String
        let path: String?
        let dependencies: [[String: [String?]]]

        /// The folder of its sources, by SwiftPM's conventions unless the manifest names one.
        var folder: URL {
            TestPaths.repositoryRoot.appendingPathComponent(
                path ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)"))
        }

        /// The modules it may import: its own targets and, for a product, the product's
        /// module (every product here is named after its module).
        var declaredModules: Set<String> {
            Set(
                dependencies.compactMap { dependency in
                    (dependency["product"] ?? dependency["target"] ?? dependency["byName"])?.first ?? nil
                })
        }

        /// "Package/Product" for products, the name for targets of this package.
        var names: [String] {
            dependencies.compactMap { dependency in
                if let product = dependency["product"], let name = product.first ?? nil {
                    return "\(product[1] ?? "?")/\(name)"
                }
                if let target = dependency["target"] ?? dependency["byName"], let name = target.first ?? nil {
                    return name
                }
                return nil
            }
        }
    }

    struct Manifest: Decodable {
        let targets: [Target]
    }

    static func targets() async throws -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: try await manifest().targets.map { ($0.name, $0.names) })
    }

    /// `swift package dump-package` takes seconds: waited for off the cooperative pool.
    static func manifest() async throws -> Manifest {
        try await OffThePool.run { try dumpedManifest() }
    }

    private static func dumpedManifest() throws -> Manifest {
        // A scratch folder of its own: `swift test` holds the lock on .build while this runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = Pipe()
        let child = try ChildSpawn.start(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swift", "package", "--package-path", TestPaths.repositoryRoot.path, "--scratch-path", scratch.path,
                "dump-package",
            ], standardOutput: output.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    /// The toolchain's and the platforms' own modules, which no manifest declares (Darwin and
    /// SQLite3 only behind `#if canImport`, for Apple platforms).
    static let toolchainModules: Set = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc",
        "Musl", "Synchronization", "Testing", "_Concurrency", "RegexBuilder", "Darwin", "SQLite3",
    ]

    /// Every `import` line of a target's Swift files, as "file:line module".
    static func imports(under folder: URL) throws -> [(place: String, module: String)] {
        let kinds = "typealias|struct|class|enum|protocol|let|var|func"
        let regex = try Regex(
            #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:"# + kinds + #")\s+)?([A-Za-z_][A-Za-z0-9_]*)"#)
        var found: [(String, String)] = []
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                guard let match = line.firstMatch(of: regex), let module = match.output[1].substring else { continue }
                let path = file.path.replacingOccurrences(of: TestPaths.repositoryRoot.path + "/", with: "")
                found.append(("\(path):\(number + 1)", String(module)))
            }
        }
        return found
    }

    /// Everything a target reaches through this package's own targets.
    static func closure(of target: String, in graph: [String: [String]]) -> Set<String> {
        var seen = Set<String>()
        var pending = [target]
        while let next = pending.popLast() {
            for dependency in graph[next] ?? [] where seen.insert(dependency).inserted { pending.append(dependency) }
        }
        return seen
    }

    @Test func theDomainReachesNoHTTPAndTheProductNoBenchmark() async throws {
        let graph = try await Self.targets()
        // Storage (and SQLite's own API), logging, metrics and hashing: none of these packages
        // has an HTTP module.
        let domainAllowed: Set = [
            "ConcurrencyLimits", "GRDB.swift/GRDB", "GRDB.swift/GRDBSQLite", "swift-log/Logging",
            "swift-metrics/Metrics",
            "swift-crypto/Crypto", "swift-crypto/_CryptoExtras",
        ]
        #expect(Self.closure(of: "AdminDomain", in: graph) == domainAllowed)
        #expect(Self.closure(of: "HTMLRender", in: graph).isEmpty)
        #expect(Self.closure(of: "QRCode", in: graph).isEmpty)
        #expect(Self.closure(of: "ConcurrencyLimits", in: graph).isEmpty)
        let product = Self.closure(of: "admin-panel", in: graph)
        #expect(!product.contains("PanelBenchmarks") && !product.contains("PanelLoad"))
        #expect(product.isSuperset(of: ["AdminWeb", "AdminDomain", "DemoData", "QRCode", "HTMLRender"]))
        #expect(!Self.closure(of: "AdminWeb", in: graph).contains("PanelBenchmarks"))
        // The provider clients know nothing of the panel, and the fakes stay out of the
        // send path: the product reaches them only through the demo's simulator, if ever.
        let push = Self.closure(of: "PushClients", in: graph)
        #expect(push.isDisjoint(with: ["AdminDomain", "AdminWeb", "DemoData", "PushFakes"]))
        #expect(product.contains("PushClients"))
        #expect(
            !Self.closure(of: "AdminWeb", in: graph).contains("PushFakes"), "only the demo's simulator runs the fakes")
        #expect(!Self.closure(of: "AdminWeb", in: graph).contains("DemoData"), "the demo's setup lives in PanelDemo")
        #expect(
            Self.closure(of: "PushFakes", in: graph).isDisjoint(with: ["PushClients", "AdminDomain"]),
            "the fakes check the protocol on their own")
    }

    /// The manifest is only half the graph: a file can import a module its target reaches only
    /// through another target. Every import must be a dependency its target declares.
    @Test func everyImportIsADependencyItsTargetDeclares() async throws {
        let manifest = try await Self.manifest()
        var checked = 0
        var strays: [String] = []
        for target in manifest.targets {
            let allowed = target.declaredModules.union(Self.toolchainModules)
            for found in try Self.imports(under: target.folder) {
                checked += 1
                if !allowed.contains(found.module) {
                    strays.append("\(found.place) imports \(found.module), which \(target.name) does not declare")
                }
            }
        }
        #expect(checked > 300, "the import lines were found")
        #expect(strays.isEmpty, "\n\(strays.joined(separator: "\n"))")
    }
}
