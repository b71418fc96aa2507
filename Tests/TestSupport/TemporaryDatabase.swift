import AdminDomain
import DemoData
import Foundation
import GRDB
import Synchronization

/// A database file in its own temporary folder, removed by `remove()`.
public struct TemporaryDatabase: Sendable {
    public let directory: URL
    public var path: String { directory.appendingPathComponent("app.sqlite").path }

    /// A fixed "now" so seeded data and expectations agree on what today is.
    public static let seedNow = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    public init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("panel-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A database with the app's schema and `users` seeded users (plus the 20,000-item user):
    /// a copy of one seeded once per test run for each users, seed and minute of `now`.
    /// Seeding takes seconds in a debug build; copying, milliseconds. Both block their
    /// thread, so both run off Swift's cooperative pool: the suite's tests share its two
    /// threads, and a seeding held there stalls every other test (and their clients' timeouts).
    public static func seeded(users: Int = 200, seed: UInt64 = 7, now: Date = Date()) async throws
        -> TemporaryDatabase
    {
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let template = try await SeededTemplates.shared.path(users: users, seed: seed, now: minute)
        return try await OffThePool.run {
            let database = try TemporaryDatabase()
            try FileManager.default.copyItem(atPath: template, toPath: database.path)
            return database
        }
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

/// The seeded databases that `TemporaryDatabase.seeded` copies, made on first use and
/// removed when the test process ends.
final class SeededTemplates: Sendable {
    static let shared = SeededTemplates()

    struct Key: Hashable {
        let users: Int
        let seed: UInt64
        let now: Date
    }

    private let folder = URL(fileURLWithPath: seededTemplatesFolder)
    /// One seeding per template, awaited by every test that wants it (single flight); the lock
    /// is held only to find or start it, so different templates are seeded side by side.
    private let seedings = Mutex<[Key: Task<String, any Error>]>([:])

    func path(users: Int, seed: UInt64, now: Date) async throws -> String {
        let key = Key(users: users, seed: seed, now: now)
        let folder = folder
        let seeding = seedings.withLock { seedings in
            if let seeding = seedings[key] { return seeding }
            let seeding = Task {
                try await OffThePool.run {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let path = folder.appendingPathComponent(
                        "\(users)-\(seed)-\(Int(now.timeIntervalSince1970)).sqlite"
                    )
                    .path
                    _ = try DemoSeeder(userCount: users, seed: seed, now: now).run(path: path)
                    return path
                }
            }
            seedings[key] = seeding
            return seeding
        }
        return try await seeding.value
    }

    private init() {
        atexit { try? FileManager.default.removeItem(atPath: seededTemplatesFolder) }
    }
}

private let seededTemplatesFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("panel-test-templates-\(UUID().uuidString)").path
