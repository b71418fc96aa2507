import Foundation
import JWTKit

/// The ES256 provider token APNs wants in `authorization: bearer`. Apple refuses one older
/// than an hour and answers 429 TooManyProviderTokenUpdates to one made more often than
/// every 20 minutes: a token is made again after 50 minutes. When APNs says a token expired
/// or is invalid, one fresh token is made at once (a scheduled token only); a token made
/// that way is replaced only by the schedule, so a broken key cannot cause a storm.
actor APNsProviderTokens {
    static let lifetime: TimeInterval = 50 * 60
    static let minimumAge: TimeInterval = 20 * 60

    struct Token: Sendable, Equatable {
        let value: String
        let issuedAt: Date
        let forced: Bool
    }

    private let credentials: APNsCredentials
    private let keys: JWTKeyCollection
    private let now: @Sendable () -> Date
    private var current: Token?
    private var making: Task<Token, any Error>?

    init(credentials: APNsCredentials, now: @escaping @Sendable () -> Date) async {
        self.credentials = credentials
        self.now = now
        keys = await JWTKeyCollection().add(ecdsa: credentials.key, kid: JWKIdentifier(string: credentials.keyID))
    }

    func token() async throws -> Token {
        if let current, now().timeIntervalSince(current.issuedAt) < Self.lifetime { return current }
        return try await make(forced: false)
    }

    /// A fresh token after APNs refused `rejected`, or nil when none may be made yet.
    func replace(_ rejected: Token) async throws -> Token? {
        guard let current else { return try await make(forced: true) }
        if current != rejected { return current }
        guard !current.forced || now().timeIntervalSince(current.issuedAt) >= Self.minimumAge else { return nil }
        return try await make(forced: true)
    }

    private struct Claims: JWTPayload {
        let iss: String
        let iat: Int64
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    private func make(forced: Bool) async throws -> Token {
        let task: Task<Token, any Error>
        if let making {
            task = making
        } else {
            let issued = now()
            let claims = Claims(iss: credentials.teamID, iat: Int64(issued.timeIntervalSince1970))
            let keys = self.keys, kid = credentials.keyID
            task = Task {
                let value = try await keys.sign(claims, kid: JWKIdentifier(string: kid))
                PushMetrics.tokenRefreshed(provider: "apns")
                return Token(value: value, issuedAt: issued, forced: forced)
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
