import AsyncHTTPClient
import ConcurrencyLimits
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Firebase Cloud Messaging over HTTP v1: one message per request, OAuth from a service account.
public final class FCMClient: Sendable {
    public static let defaultBaseURL = "https://fcm.googleapis.com"

    public let account: ServiceAccount
    private let baseURL: String
    private let client: HTTPClient
    private let tokens: GoogleAccessTokens
    private let timeout: Duration
    private let now: @Sendable () -> Date
    private let limit: AsyncSemaphore

    /// - Parameters:
    ///   - client: shared by the OAuth exchange and the sends; the caller shuts it down.
    ///   - timeout: for one request, from the start to the last byte of the answer.
    public init(
        account: ServiceAccount, baseURL: String = FCMClient.defaultBaseURL, client: HTTPClient,
        timeout: Duration = .seconds(10), maxInFlight: Int = 128, now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger
    ) async {
        self.account = account
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        self.timeout = timeout
        self.now = now
        limit = AsyncSemaphore(limit: maxInFlight)
        tokens = await GoogleAccessTokens(account: account, client: client, timeout: timeout, now: now, logger: logger)
    }

    /// When the OAuth server last gave us a token.
    public var lastAuthenticatedAt: Date? {
        get async { await tokens.lastExchangeAt }
    }

    var sendURL: String { "\(baseURL)/v1/projects/\(account.projectID)/messages:send" }

    public func send(_ push: PushMessage) async -> PushOutcome {
        await PushMetrics.measured(provider: "fcm") { await limit.run { await attempt(push) } }
    }

    private func attempt(_ push: PushMessage) async -> PushOutcome {
        let request = FCMRequestBody(push, now: now())
        if let refusal = Self.refusal(push, payloadBytes: request.payloadBytes) { return refusal }
        let body = ByteBuffer(bytes: request.bytes)
        var token: GoogleAccessTokens.Token
        do {
            token = try await tokens.token()
        } catch {
            return Self.outcome(of: error, attempt: push.attempt)
        }
        var response = await post(body, token: token, attempt: push.attempt)
        // A refused access token (expired early, revoked) is fetched again once; a second
        // refusal is ours to fix. THIRD_PARTY_AUTH_ERROR is a 401 too, but about APNs
        // credentials in Firebase: a new access token would not help.
        if case .success(let answer) = response, answer.status == 401, Self.errorBody(answer)?.errorCode == nil {
            do {
                token = try await tokens.replace(token)
            } catch {
                return Self.outcome(of: error, attempt: push.attempt)
            }
            response = await post(body, token: token, attempt: push.attempt)
        }
        switch response {
        case .failure(let failure): return failure.outcome
        case .success(let answer): return Self.outcome(of: answer, attempt: push.attempt, now: now())
        }
    }

    private func post(_ body: ByteBuffer, token: GoogleAccessTokens.Token, attempt: Int) async -> Result<
        ProviderResponse, PushOutcomeFailure
    > {
        var headers = HTTPHeaders()
        headers.add(name: "authorization", value: "Bearer \(token.value)")
        headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        return await ProviderCall.push(
            client, provider: "FCM", url: sendURL, headers: headers, body: body, timeout: timeout, attempt: attempt)
    }

    /// What is refused before anything is sent.
    static func refusal(_ push: PushMessage, payloadBytes: Int) -> PushOutcome? {
        if payloadBytes > PushLimits.payloadBytes {
            return .failed(reason: "payload too large: \(payloadBytes) bytes, the limit is \(PushLimits.payloadBytes)")
        }
        if push.token.isEmpty { return .deadToken(reason: "empty token") }
        return nil
    }

    static func errorBody(_ answer: ProviderResponse) -> FCMErrorBody? {
        try? JSONDecoder().decode(FCMErrorBody.self, from: answer.bodyData)
    }

    static func outcome(of failure: GoogleAccessTokens.Failure, attempt: Int) -> PushOutcome {
        switch failure {
        case .refused(let why): .credentialsProblem(reason: "FCM OAuth: \(why)")
        case .unreachable(let why):
            .retryLater(reason: "FCM OAuth: \(why)", after: RetryDelay.backoff(attempt: attempt))
        }
    }

    /// Maps an answer by its FCM error code first, its HTTP status only when there is none.
    static func outcome(of answer: ProviderResponse, attempt: Int, now: Date) -> PushOutcome {
        if answer.status == 200 {
            struct Sent: Decodable { let name: String? }
            let name = (try? JSONDecoder().decode(Sent.self, from: answer.bodyData))?.name
            return .accepted(messageID: name ?? "(none given)")
        }
        let error = errorBody(answer)
        let code = error?.errorCode
        let message = error?.error.message.map { ": \(String($0.prefix(200)))" } ?? ""
        let retryAfter = answer.headers.first(name: "retry-after")
        switch code {
        case "UNREGISTERED":
            return .deadToken(reason: "UNREGISTERED")
        case "INVALID_ARGUMENT":
            return error?.namesTheToken == true
                ? .deadToken(reason: "INVALID_ARGUMENT (the registration token)\(message)")
                : .failed(reason: "INVALID_ARGUMENT\(message)")
        case "SENDER_ID_MISMATCH", "THIRD_PARTY_AUTH_ERROR":
            return .credentialsProblem(reason: "\(code!)\(message)")
        case "QUOTA_EXCEEDED":
            return .retryLater(
                reason: "QUOTA_EXCEEDED",
                after: RetryDelay.after(retryAfter: retryAfter, attempt: attempt, minimum: .seconds(60), now: now))
        case "UNAVAILABLE", "INTERNAL":
            return .retryLater(
                reason: code!, after: RetryDelay.after(retryAfter: retryAfter, attempt: attempt, now: now))
        default:
            break
        }
        let label = code ?? error?.error.status ?? "HTTP \(answer.status)"
        switch answer.status {
        case 401, 403:
            return .credentialsProblem(reason: "\(label) (\(answer.status))\(message)")
        case 404 where code == nil:
            // Without UNREGISTERED, a 404 means the project or the address is wrong, not the token.
            return .credentialsProblem(reason: "\(label) (404): check the project id and --fcm-base-url\(message)")
        case 413:
            return .failed(reason: "payload too large (413)\(message)")
        case 429:
            return .retryLater(
                reason: label,
                after: RetryDelay.after(retryAfter: retryAfter, attempt: attempt, minimum: .seconds(60), now: now))
        case 500...599:
            return .retryLater(
                reason: "\(label) (\(answer.status))",
                after: RetryDelay.after(retryAfter: retryAfter, attempt: attempt, now: now))
        default:
            return .failed(reason: "\(label) (\(answer.status))\(message)")
        }
    }
}

/// An outcome carried through a `Result` where the call never produced an answer.
struct PushOutcomeFailure: Error {
    let outcome: PushOutcome
    init(_ outcome: PushOutcome) { self.outcome = outcome }
}
