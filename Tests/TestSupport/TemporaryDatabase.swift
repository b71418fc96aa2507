import AdminDomain
import DemoData
import Foundation
import GRDB

/// A database file in its own temporary folder, removed by `remove()`.
public struct TemporaryDatabase: Sendable {
    public let directory: URL
    public var path: String { directory.appendingPathComponent("app.sqlite").path }

    /// A fixed "now" so seeded data and expectations agree on what today is.
    public static let seedNow = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18

    public init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("panel-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A database with the app's schema and `users` seeded users (plus the 20,000-item user).
    public static func seeded(users: Int = 200, seed: UInt64 = 7, now: Date = Date()) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        _ = try DemoSeeder(userCount: users, seed: seed, now: now).run(path: database.path)
        return database
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

public enum TestPaths {
    /// The repository's root folder, found from this file's place in it.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var publicDirectory: String { repositoryRoot.appendingPathComponent("Public").path }

    /// `shared/app-schema.sql` beside the checkout, when it is there.
    public static var sharedSchema: URL {
        repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/app-schema.sql")
    }
}

/// scrypt parameters that take microseconds: for tests only, never the product's default.
public let fastScryptForTests = ScryptParameters(logN: 4, r: 8, p: 1)
