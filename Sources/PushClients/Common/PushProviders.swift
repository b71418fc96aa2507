import AsyncHTTPClient
import Foundation
import Logging

/// Where and as whom the panel pushes: the command line's options, read once at start.
public struct PushConfiguration: Sendable {
    public var fcmServiceAccount: String?
    public var fcmBaseURL: String
    public var apnsKey: String?
    public var apnsKeyID: String?
    public var apnsTeamID: String?
    public var apnsTopic: String?
    public var apnsBaseURL: String
    public var extraCAFile: String?
    public var timeout: Duration

    public init(
        fcmServiceAccount: String? = nil, fcmBaseURL: String = FCMClient.defaultBaseURL,
        apnsKey: String? = nil, apnsKeyID: String? = nil, apnsTeamID: String? = nil, apnsTopic: String? = nil,
        apnsBaseURL: String = APNsClient.productionURL, extraCAFile: String? = nil, timeout: Duration = .seconds(10)
    ) {
        self.fcmServiceAccount = fcmServiceAccount
        self.fcmBaseURL = fcmBaseURL
        self.apnsKey = apnsKey
        self.apnsKeyID = apnsKeyID
        self.apnsTeamID = apnsTeamID
        self.apnsTopic = apnsTopic
        self.apnsBaseURL = apnsBaseURL
        self.extraCAFile = extraCAFile
        self.timeout = timeout
    }
}

/// The configured provider clients, the one HTTP client they share, and their state for /health.
public final class PushProviders: Sendable {
    public let fcm: FCMClient?
    public let apns: APNsClient?
    private let client: HTTPClient?

    public static let none = PushProviders(fcm: nil, apns: nil, client: nil)

    init(fcm: FCMClient?, apns: APNsClient?, client: HTTPClient?) {
        self.fcm = fcm
        self.apns = apns
        self.client = client
    }

    /// Reads the credentials (once: they are never read again nor logged); any problem is
    /// one sentence naming the option.
    public static func load(_ configuration: PushConfiguration, logger: Logger) async throws(PushConfigurationError)
        -> PushProviders
    {
        let account = try configuration.fcmServiceAccount.map { path throws(PushConfigurationError) in
            try ServiceAccount(contentsOf: path)
        }
        let apnsOptions = [
            configuration.apnsKey, configuration.apnsKeyID, configuration.apnsTeamID, configuration.apnsTopic,
        ]
        var credentials: APNsCredentials?
        if apnsOptions.contains(where: { $0 != nil }) {
            guard let key = configuration.apnsKey, let keyID = configuration.apnsKeyID,
                let teamID = configuration.apnsTeamID, let topic = configuration.apnsTopic
            else {
                throw PushConfigurationError(
                    "APNs needs all four of --apns-key, --apns-key-id, --apns-team-id and --apns-topic")
            }
            credentials = try APNsCredentials(keyPath: key, keyID: keyID, teamID: teamID, topic: topic)
        }
        for (option, url) in [
            ("--fcm-base-url", configuration.fcmBaseURL), ("--apns-base-url", configuration.apnsBaseURL),
        ] {
            guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http",
                parsed.host != nil,
                parsed.query == nil
            else {
                throw PushConfigurationError("\(option) \"\(url)\" is not an http or https address")
            }
        }
        guard account != nil || credentials != nil else {
            if let file = configuration.extraCAFile { _ = try PushHTTPClients.certificates(in: file) }
            return .none
        }
        let client = try PushHTTPClients.make(extraCAFile: configuration.extraCAFile)
        var fcm: FCMClient?
        if let account {
            fcm = await FCMClient(
                account: account, baseURL: configuration.fcmBaseURL, client: client,
                timeout: configuration.timeout, logger: logger)
            logger.info(
                "FCM configured",
                metadata: ["project": "\(account.projectID)", "base_url": "\(configuration.fcmBaseURL)"])
        }
        var apns: APNsClient?
        if let credentials {
            apns = await APNsClient(
                credentials: credentials, baseURL: configuration.apnsBaseURL, client: client,
                timeout: configuration.timeout)
            logger.info(
                "APNs configured",
                metadata: [
                    "key_id": "\(credentials.keyID)", "topic": "\(credentials.topic)",
                    "base_url": "\(configuration.apnsBaseURL)",
                ])
        }
        return PushProviders(fcm: fcm, apns: apns, client: client)
    }

    /// Through the device's provider; nil when that provider is not configured.
    public func send(_ push: PushMessage, via provider: Provider) async -> PushOutcome? {
        switch provider {
        case .fcm: await fcm?.send(push)
        case .apns: await apns?.send(push)
        }
    }

    public enum Provider: String, Sendable, CaseIterable {
        case fcm, apns
    }

    public struct Status: Sendable, Equatable {
        public let configured: Bool
        public let lastAuthenticatedAt: Date?

        public init(configured: Bool, lastAuthenticatedAt: Date?) {
            self.configured = configured
            self.lastAuthenticatedAt = lastAuthenticatedAt
        }
    }

    public func status() async -> [String: Status] {
        [
            "fcm": Status(configured: fcm != nil, lastAuthenticatedAt: await fcm?.lastAuthenticatedAt),
            "apns": Status(configured: apns != nil, lastAuthenticatedAt: await apns?.lastAuthenticatedAt),
        ]
    }

    public func shutdown() async {
        try? await client?.shutdown()
    }
}
