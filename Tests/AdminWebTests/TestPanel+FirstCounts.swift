import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization

/// The dashboard's and the reminders' first counts, made once, by the first caller.
final class FirstCounts: Sendable {
    private let count: @Sendable () async throws -> Void
    private let task = Mutex<Task<Void, any Error>?>(nil)

    init(_ count: @escaping @Sendable () async throws -> Void) { self.count = count }

    func made() async throws {
        let task = task.withLock { task in
            if let task { return task }
            let count = self.count
            let made = Task { try await count() }
            task = made
            return made
        }
        try await task.value
    }
}

/// A test client that has the first counts made before it asks for a page that shows them.
struct CountingFirst: TestClientProtocol {
    /// The dashboard, its charts' CSV, the reminder health page and its CSV (`SiteURL`).
    static let countedPaths: Set<String> = ["/", "/dashboard.csv", "/reminders", "/reminders.csv"]

    let client: any TestClientProtocol
    let counts: FirstCounts

    var port: Int? { client.port }

    func executeRequest(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?
    ) async throws -> TestResponse {
        let path = String(uri.prefix { $0 != "?" && $0 != "#" })
        if method == .get, Self.countedPaths.contains(path) { try await counts.made() }
        return try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
    }
}
