import AdminDomain
import PushClients

extension PushProviders.Provider {
    /// The client for a device's stored provider; nil for one the panel does not send to.
    public init?(_ stored: Stored<PushProvider>) {
        guard let provider = stored.known.flatMap({ Self(rawValue: $0.rawValue) }) else { return nil }
        self = provider
    }
}

extension PushPlatform {
    /// A platform the app's table should not hold gets both of FCM's per-platform blocks.
    public init(_ stored: Stored<Platform>) {
        self =
            switch stored.known {
            case .ios: .ios
            case .android: .android
            case nil: .other
            }
    }
}

extension PushProviders {
    /// The providers this server has credentials for, in the audience's words: the rules
    /// leave out every device of another.
    public var configured: Set<PushProvider> {
        var configured: Set<PushProvider> = []
        if fcm != nil { configured.insert(.fcm) }
        if apns != nil { configured.insert(.apns) }
        return configured
    }
}
