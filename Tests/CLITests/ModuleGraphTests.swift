import Foundation
import PanelLoad
import Testing
import TestSupport

/// The module graph as the manifest declares it (`swift package dump-package`), so that a
/// dependency added in the wrong place fails here instead of passing unnoticed.
@Suite(.timeLimit(.minutes(5))) struct ModuleGraph {
    struct Target: Decodable {
        let name: String
        let dependencies: [[String: [String?]]]

        /// "Package/Product" for products, the name for targets of this package.
        var names: [String] {
            dependencies.compactMap { dependency in
                if let product = dependency["product"], let name = product.first ?? nil { return "\(product[1] ?? "?")/\(name)" }
                if let target = dependency["target"] ?? dependency["byName"], let name = target.first ?? nil { return name }
                return nil
            }
        }
    }

    struct Manifest: Decodable {
        let targets: [Target]
    }

    static func targets() throws -> [String: [String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch folder of its own: `swift test` holds the lock on .build while this runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        process.arguments = ["swift", "package", "--package-path", TestPaths.repositoryRoot.path,
                             "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let manifest = try JSONDecoder().decode(Manifest.self, from: data)
        return Dictionary(uniqueKeysWithValues: manifest.targets.map { ($0.name, $0.names) })
    }

    /// Everything a target reaches through this package's own targets.
    static func closure(of target: String, in graph: [String: [String]]) -> Set<String> {
        var seen = Set<String>(), pending = [target]
        while let next = pending.popLast() {
            for dependency in graph[next] ?? [] where seen.insert(dependency).inserted { pending.append(dependency) }
        }
        return seen
    }

    @Test func theDomainReachesNoHTTPAndTheProductNoBenchmark() throws {
        let graph = try Self.targets()
        // Storage (and SQLite's own API), logging, metrics and hashing: none of these packages
        // has an HTTP module.
        let domainAllowed: Set = ["GRDB.swift/GRDB", "GRDB.swift/GRDBSQLite", "swift-log/Logging", "swift-metrics/Metrics",
                                  "swift-crypto/Crypto", "swift-crypto/_CryptoExtras"]
        #expect(Self.closure(of: "AdminDomain", in: graph) == domainAllowed)
        #expect(Self.closure(of: "HTMLRender", in: graph).isEmpty)
        #expect(Self.closure(of: "QRCode", in: graph).isEmpty)
        let product = Self.closure(of: "admin-panel", in: graph)
        #expect(!product.contains("PanelBenchmarks") && !product.contains("PanelLoad"))
        #expect(product.isSuperset(of: ["AdminWeb", "AdminDomain", "DemoData", "QRCode", "HTMLRender"]))
        #expect(!Self.closure(of: "AdminWeb", in: graph).contains("PanelBenchmarks"))
        // The provider clients know nothing of the panel, and the fakes stay out of the
        // send path: the product reaches them only through the demo's simulator, if ever.
        let push = Self.closure(of: "PushClients", in: graph)
        #expect(push.isDisjoint(with: ["AdminDomain", "AdminWeb", "DemoData", "PushFakes"]))
        #expect(product.contains("PushClients"))
        #expect(!Self.closure(of: "AdminWeb", in: graph).contains("PushFakes"), "only the demo's simulator runs the fakes")
        #expect(Self.closure(of: "PushFakes", in: graph).isDisjoint(with: ["PushClients", "AdminDomain"]), "the fakes check the protocol on their own")
    }
}
