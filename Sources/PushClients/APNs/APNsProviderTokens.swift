import Foundation
import JWTKit
import Synchronization

/// The ES256 provider token APNs wants in `authorization: bearer`. Apple refuses one older
/// than an hour and answers 429 TooManyProviderTokenUpdates to tokens made more often than
/// every 20 minutes: a token is made again after 50 minutes, and when APNs calls it expired
/// or invalid, at once, but only if it is at least 20 minutes old. A younger token refused
/// means a wrong key, key id, team id or clock: a credentials problem, and no storm.
actor APNsProviderTokens {
    static let lifetime: TimeInterval = 50 * 60
    static let minimumAge: TimeInterval = 20 * 60

    struct Token: Sendable, Equatable {
        let value: String
        let issuedAt: Date
    }

    private let credentials: APNsCredentials
    private let keys: JWTKeyCollection
    private let now: @Sendable () -> Date
    private var current: Token? {
        didSet { shared.withLock { [current] in $0 = current } }
    }
    /// `current` for the sends' fast path, read without a hop onto the actor; the lock is
    /// held for a copy.
    private nonisolated let shared = Mutex<Token?>(nil)
    private var making: Task<Token, any Error>?

    init(credentials: APNsCredentials, now: @escaping @Sendable () -> Date) async {
        self.credentials = credentials
        self.now = now
        keys = await JWTKeyCollection().add(ecdsa: credentials.key, kid: JWKIdentifier(string: credentials.keyID))
    }

    /// The current token while it is young enough (read without a hop onto the actor), or a new one.
    nonisolated func token() async throws -> Token {
        if let token = shared.withLock({ $0 }), now().timeIntervalSince(token.issuedAt) < Self.lifetime { return token }
        return try await isolatedToken()
    }

    private func isolatedToken() async throws -> Token {
        if let current, now().timeIntervalSince(current.issuedAt) < Self.lifetime { return current }
        return try await make()
    }

    /// A fresh token after APNs refused `rejected`, or nil when none may be made yet.
    func replace(_ rejected: Token) async throws -> Token? {
        if let current, current != rejected { return current }
        guard now().timeIntervalSince(rejected.issuedAt) >= Self.minimumAge else { return nil }
        return try await make()
    }

    private struct Claims: JWTPayload {
        let iss: String
        let iat: Int64
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    private func make() async throws -> Token {
        let task: Task<Token, any Error>
        if let making {
            task = making
        } else {
            let issued = now()
            let claims = Claims(iss: credentials.teamID, iat: Int64(issued.timeIntervalSince1970))
            let keys = self.keys
            let kid = credentials.keyID
            task = Task {
                let value = try await keys.sign(claims, kid: JWKIdentifier(string: kid))
                PushMetrics.tokenRefreshed(provider: "apns")
                return Token(value: value, issuedAt: issued)
            }
            making = task
        }
        do {
            let token = try await task.value
            if making == task {
                current = token
                making = nil
            }
            return token
        } catch {
            if making == task { making = nil }
            throw error
        }
    }
}
