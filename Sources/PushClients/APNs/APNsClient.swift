import AsyncHTTPClient
import ConcurrencyLimits
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Apple Push Notification service over HTTP/2 and TLS, with a provider token.
public final class APNsClient: Sendable {
    public static let productionURL = "https://api.push.apple.com"
    public static let sandboxURL = "https://api.sandbox.push.apple.com"

    public let credentials: APNsCredentials
    private let baseURL: String
    private let client: HTTPClient
    private let tokens: APNsProviderTokens
    private let timeout: Duration
    private let now: @Sendable () -> Date
    private let limit: AsyncSemaphore
    private let authenticated = LastTime()

    /// - Parameter client: made with `PushHTTPClients.apns`, which speaks HTTP/2; the caller shuts it down.
    public init(
        credentials: APNsCredentials, baseURL: String = APNsClient.productionURL, client: HTTPClient,
        timeout: Duration = .seconds(10), maxInFlight: Int = 128, now: @escaping @Sendable () -> Date = Date.init
    ) async {
        self.credentials = credentials
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        self.timeout = timeout
        self.now = now
        limit = AsyncSemaphore(limit: maxInFlight)
        tokens = await APNsProviderTokens(credentials: credentials, now: now)
    }

    /// When APNs last took our provider token: an answer about the push itself.
    public var lastAuthenticatedAt: Date? {
        get async { await authenticated.value }
    }

    public func send(_ push: PushMessage) async -> PushOutcome {
        await PushMetrics.measured(provider: "apns") { await limit.run { await attempt(push) } }
    }

    /// APNs has no dry run: a dry run checks the payload and makes the provider token, and
    /// sends nothing.
    private func attempt(_ push: PushMessage) async -> PushOutcome {
        let body = APNsPayload.bytes(push)
        if let refusal = Self.refusal(push, payloadBytes: body.count) { return refusal }
        var token: APNsProviderTokens.Token
        do {
            token = try await tokens.token()
        } catch {
            return .credentialsProblem(reason: "the APNs key cannot sign: \(error)")
        }
        if push.dryRun {
            return .accepted(
                messageID: "dry run: APNs has no validate-only mode; payload \(body.count) bytes, provider token made")
        }
        var answer = await post(push, body: ByteBuffer(bytes: body), token: token)
        if case .success(let response) = answer, response.status == 403,
            Self.reason(response).map(Self.providerTokenReasons.contains) == true
        {
            let fresh: APNsProviderTokens.Token?
            do {
                fresh = try await tokens.replace(token)
            } catch {
                return .credentialsProblem(reason: "the APNs key cannot sign: \(error)")
            }
            guard let fresh else {
                let age = Int(now().timeIntervalSince(token.issuedAt) / 60)
                let status = Self.reason(response) ?? "403"
                return .credentialsProblem(
                    reason: "\(status) for a provider token made \(age) minutes ago: "
                        + "check the key, its key id, the team id and the clock")
            }
            token = fresh
            answer = await post(push, body: ByteBuffer(bytes: body), token: token)
        }
        switch answer {
        case .failure(let failure): return failure.outcome
        case .success(let response):
            // An answer about the push itself means the token passed; 403, 429 and 5xx do not say.
            if response.status < 500, response.status != 403, response.status != 429 {
                await authenticated.set(now())
            }
            return Self.outcome(of: response, push: push, now: now())
        }
    }

    private func post(_ push: PushMessage, body: ByteBuffer, token: APNsProviderTokens.Token) async -> Result<
        ProviderResponse, PushOutcomeFailure
    > {
        var headers = HTTPHeaders()
        headers.add(name: "authorization", value: "bearer \(token.value)")
        headers.add(name: "apns-topic", value: credentials.topic)
        headers.add(name: "apns-push-type", value: "alert")
        headers.add(name: "apns-priority", value: "10")
        headers.add(name: "apns-expiration", value: APNsHeaders.expiration(push.timeToLive, now: now()))
        headers.add(name: "apns-collapse-id", value: push.deliveryID)
        headers.add(name: "apns-id", value: APNsHeaders.apnsID(deliveryID: push.deliveryID))
        headers.add(name: "content-type", value: "application/json")
        return await ProviderCall.push(
            client, provider: "APNs", url: "\(baseURL)/3/device/\(push.token)", headers: headers, body: body,
            timeout: timeout, attempt: push.attempt)
    }

    static let providerTokenReasons: Set<String> = [
        "ExpiredProviderToken", "InvalidProviderToken", "MissingProviderToken",
    ]

    /// What is refused before anything is sent: a device token is hexadecimal (it goes in
    /// the path, so nothing else may), the collapse id has a limit, and so has the payload.
    static func refusal(_ push: PushMessage, payloadBytes: Int) -> PushOutcome? {
        if payloadBytes > PushLimits.payloadBytes {
            return .failed(reason: "payload too large: \(payloadBytes) bytes, the limit is \(PushLimits.payloadBytes)")
        }
        if push.deliveryID.utf8.count > PushLimits.collapseIDBytes {
            return .failed(
                reason: "the delivery id is longer than the \(PushLimits.collapseIDBytes) bytes of apns-collapse-id")
        }
        if push.token.isEmpty || push.token.count > 200 || !push.token.allSatisfy(\.isHexDigit) {
            return .deadToken(reason: "BadDeviceToken (not a hexadecimal APNs token; not sent)")
        }
        return nil
    }

    static func reason(_ response: ProviderResponse) -> String? {
        struct Body: Decodable { let reason: String? }
        return (try? JSONDecoder().decode(Body.self, from: response.bodyData))?.reason
    }

    /// Maps an answer by its status and `reason` (developer.apple.com, "Handling notification
    /// responses from APNs").
    static func outcome(of response: ProviderResponse, push: PushMessage, now: Date) -> PushOutcome {
        let reason = reason(response)
        let label = reason ?? "HTTP \(response.status)"
        let retryAfter = response.headers.first(name: "retry-after")
        switch (response.status, reason) {
        case (200, _):
            return .accepted(
                messageID: response.headers.first(name: "apns-id") ?? APNsHeaders.apnsID(deliveryID: push.deliveryID))
        case (410, _), (400, "BadDeviceToken"):
            return .deadToken(reason: label)
        case (400, "BadTopic"), (400, "MissingTopic"), (400, "TopicDisallowed"), (400, "BadCertificateEnvironment"),
            (403, _):
            // Our configuration, never the device: a campaign stops on it.
            return .credentialsProblem(reason: "\(label) (\(response.status))")
        case (413, _):
            return .failed(reason: "payload too large (\(label))")
        case (429, _), (500...599, _):
            return .retryLater(
                reason: "\(label) (\(response.status))",
                after: RetryDelay.after(retryAfter: retryAfter, attempt: push.attempt, now: now))
        default:
            return .failed(reason: "\(label) (\(response.status))")
        }
    }
}

/// A time written by one send and read by /health.
actor LastTime {
    private(set) var value: Date?
    func set(_ date: Date) { value = date }
}
