import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// OAuth 2.0 access tokens for FCM from a service account (RFC 7523 JWT bearer grant).
/// A token is kept until five minutes before it expires; however many sends wait for a new
/// one, one exchange fetches it.
actor GoogleAccessTokens {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    static let margin: TimeInterval = 300

    struct Token: Sendable, Equatable {
        let value: String
        let expiresAt: Date
    }

    /// The exchange failed: `refused` is our credentials' fault, `unreachable` is not.
    enum Failure: Error {
        case refused(String)
        case unreachable(String)
    }

    private let account: ServiceAccount
    private let client: HTTPClient
    private let keys: JWTKeyCollection
    private let timeout: Duration
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var current: Token? {
        didSet { shared.withLock { [current] in $0 = current } }
    }
    /// `current` for the sends' fast path, read without a hop onto the actor (a hop a push
    /// at 10,000 pushes a second); the lock is held for a copy.
    private nonisolated let shared = Mutex<Token?>(nil)
    private var exchange: Task<Token, any Error>?
    private(set) var lastExchangeAt: Date?

    init(
        account: ServiceAccount, client: HTTPClient, timeout: Duration, now: @escaping @Sendable () -> Date,
        logger: Logger
    ) async {
        self.account = account
        self.client = client
        self.timeout = timeout
        self.now = now
        self.logger = logger
        keys = await JWTKeyCollection().add(rsa: account.privateKey, digestAlgorithm: .sha256)
    }

    /// A token good for at least five more minutes: the current one without a hop onto the
    /// actor when it is.
    nonisolated func token() async throws(Failure) -> Token {
        if let token = shared.withLock({ $0 }), token.expiresAt.timeIntervalSince(now()) > Self.margin { return token }
        return try await isolatedToken()
    }

    private func isolatedToken() async throws(Failure) -> Token {
        if let current, current.expiresAt.timeIntervalSince(now()) > Self.margin { return current }
        return try await refreshed()
    }

    /// `rejected` was refused by FCM (401): fetch a new one unless another send already did.
    func replace(_ rejected: Token) async throws(Failure) -> Token {
        if let current, current != rejected { return current }
        current = nil
        return try await refreshed()
    }

    private func refreshed() async throws(Failure) -> Token {
        let task: Task<Token, any Error>
        if let exchange {
            task = exchange
        } else {
            task = Task { try await self.exchangeAssertion() }
            exchange = task
        }
        // Only the waiter of the newest exchange installs it: a waiter that resumes late must
        // not put back a token that was refused meanwhile.
        do {
            let token = try await task.value
            if exchange == task {
                current = token
                exchange = nil
            }
            return token
        } catch {
            if exchange == task { exchange = nil }
            throw (error as? Failure) ?? .unreachable("\(error)")
        }
    }

    private struct Claims: JWTPayload {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int64
        let exp: Int64
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    private struct Answer: Decodable {
        let accessToken: String?
        let expiresIn: Double?
        let tokenType: String?
        let error: String?
        let errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case tokenType = "token_type"
            case error
            case errorDescription = "error_description"
        }
    }

    private func exchangeAssertion() async throws -> Token {
        let issued = now()
        let iat = Int64(issued.timeIntervalSince1970)
        let claims = Claims(
            iss: account.clientEmail, scope: Self.scope, aud: account.tokenURI, iat: iat, exp: iat + 3600)
        let assertion: String
        do {
            assertion = try await keys.sign(claims)
        } catch {
            throw Failure.refused("the service account's key cannot sign: \(error)")
        }
        var form = URLComponents()
        form.queryItems = [
            URLQueryItem(name: "grant_type", value: Self.grantType), URLQueryItem(name: "assertion", value: assertion),
        ]
        let body = ByteBuffer(string: form.percentEncodedQuery ?? "")
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        headers.add(name: "accept", value: "application/json")
        let response: ProviderResponse
        do {
            response = try await ProviderCall.run(
                client, url: account.tokenURI, headers: headers, body: body, timeout: timeout)
        } catch {
            // Asking for a token again is harmless, whether or not the first question arrived.
            switch error {
            case .notSent(let why), .noAnswer(let why):
                throw Failure.unreachable("the OAuth server \(account.tokenURI): \(why)")
            }
        }
        PushMetrics.tokenRefreshed(provider: "fcm")
        let answer = try? JSONDecoder().decode(Answer.self, from: response.bodyData)
        guard response.status == 200 else {
            let reason = [answer?.error, answer?.errorDescription].compactMap { $0 }.joined(separator: ": ")
            let failure = "the OAuth server answered \(response.status)" + (reason.isEmpty ? "" : " (\(reason))")
            if response.status >= 500 || response.status == 429 { throw Failure.unreachable(failure) }
            throw Failure.refused(failure)
        }
        guard let value = answer?.accessToken, !value.isEmpty, let lifetime = answer?.expiresIn, lifetime > 0 else {
            throw Failure.refused("the OAuth server's answer has no access_token or expires_in")
        }
        if let type = answer?.tokenType, type.lowercased() != "bearer" {
            throw Failure.refused("the OAuth server gave a \"\(type)\" token, not a bearer token")
        }
        lastExchangeAt = issued
        logger.info("FCM access token fetched", metadata: ["expires_in": "\(Int(lifetime))"])
        return Token(value: value, expiresAt: issued.addingTimeInterval(lifetime))
    }
}
