import Foundation

/// One notification to one device, as the campaign dispatcher or `push test` hands it over.
public struct PushMessage: Sendable, Equatable {
    /// The delivery's own id: sent as `data.delivery_id`, and as the APNs collapse id and the
    /// Android notification tag, so that a repeat of the same delivery replaces rather than adds.
    public var deliveryID: String
    /// The device's token as the app registered it. Never logged, never shown in full.
    public var token: String
    public var platform: PushPlatform
    public var title: String
    public var body: String
    /// A screen of the app to open, for example `expirytracker://items/expiring`.
    public var deepLink: String?
    /// How long the provider may keep trying to reach a device that is offline.
    public var timeToLive: Duration
    /// FCM checks the message without delivering it; APNs has no such mode (see `APNsClient`).
    public var dryRun: Bool
    /// How many times this delivery was tried before, for the back-off of a retry.
    public var attempt: Int

    public init(
        deliveryID: String, token: String, platform: PushPlatform, title: String, body: String,
        deepLink: String? = nil, timeToLive: Duration = .seconds(86_400), dryRun: Bool = false, attempt: Int = 0
    ) {
        self.deliveryID = deliveryID
        self.token = token
        self.platform = platform
        self.title = title
        self.body = body
        self.deepLink = deepLink
        self.timeToLive = timeToLive
        self.dryRun = dryRun
        self.attempt = attempt
    }

    /// `data` for FCM and the custom keys beside `aps` for APNs: string values only.
    var customData: [(String, String)] {
        var data = [("delivery_id", deliveryID)]
        if let deepLink { data.append(("deep_link", deepLink)) }
        return data
    }

    var timeToLiveSeconds: Int64 { max(0, timeToLive.components.seconds) }
}

/// The device's operating system, which decides the per-platform blocks of an FCM message.
/// `other` (a value the app's table should not hold) gets both blocks.
public enum PushPlatform: String, Sendable {
    case ios, android, other
}

/// Both providers refuse a notification payload above 4 KB; we refuse it before sending.
public enum PushLimits {
    public static let payloadBytes = 4_096
    /// APNs refuses a longer `apns-collapse-id`.
    public static let collapseIDBytes = 64
}

extension PushMessage {
    /// The larger of the FCM and APNs payloads for this message, as the clients would send
    /// it: what the composer checks against `PushLimits.payloadBytes`.
    public var payloadBytes: Int {
        max(FCMRequestBody(self, now: Date()).payloadBytes, APNsPayload.bytes(self).count)
    }
}
